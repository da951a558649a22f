cdef object sce_forward_array(x, t, object ignore_label, int mode)
cdef object sce_backward_array(x, stats, g, object coeff)
