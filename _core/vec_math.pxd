cdef object tanh_array(x)
cdef bint tanh_f32(const float* x, float* y, Py_ssize_t n) noexcept nogil
cdef bint tanh_f64(const double* x, double* y, Py_ssize_t n) noexcept nogil
