cdef bint vec_math_ready() noexcept nogil
cdef object tanh_array(x)
cdef void tanh_f32(const float* x, float* y, Py_ssize_t n) noexcept nogil
cdef void tanh_f64(const double* x, double* y, Py_ssize_t n) noexcept nogil
cdef void exp_f32(const float* x, float* y, Py_ssize_t n) noexcept nogil
cdef void exp_f64(const double* x, double* y, Py_ssize_t n) noexcept nogil
