cdef object relu_array(x)
cdef object relu_grad_array(y, gy)
