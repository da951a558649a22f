cdef object tanh_array(x)
