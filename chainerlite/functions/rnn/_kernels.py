"""Fused CuPy kernels of the LSTM cell (GPU path only).

The gates are read from strided views of ``x`` (gate k of unit u is
channel ``u * 4 + k``), so neither direction copies them out first.
"""

from chainerlite.backends import cuda_kernel

_PREAMBLE = (
    cuda_kernel.ACC_TYPE
    + '''
template <typename A> __device__ A lstm_sigmoid(A t) {
  A e = exp(-fabs(t));
  return (t >= 0 ? A(1) : e) / (A(1) + e);
}
'''
)
# (i is CuPy's element index: the input gate is ig)
_GATES = (
    'typedef typename acc_type<T>::type A;'
    'A a = tanh((A)a_in), ig = lstm_sigmoid<A>((A)i_in),'
    '  f = lstm_sigmoid<A>((A)f_in), o = lstm_sigmoid<A>((A)o_in);'
)

lstm_fwd = cuda_kernel.Elementwise(
    'T a_in, T i_in, T f_in, T o_in, T c_prev',
    'T c, T h',
    _GATES + 'c = (T)(a * ig + f * (A)c_prev); h = (T)(o * tanh((A)c));',
    'chainerlite_lstm_fwd',
    preamble=_PREAMBLE,
)

lstm_bwd = cuda_kernel.Elementwise(
    'T a_in, T i_in, T f_in, T o_in, T c_prev, T c, T gc, T gh',
    'T ga, T gi, T gf, T go, T gc_prev',
    _GATES + 'A tc = tanh((A)c);'
    'A gc_all = (A)gc + (A)gh * o * (A(1) - tc * tc);'
    'ga = (T)(gc_all * ig * (A(1) - a * a));'
    'gi = (T)(gc_all * a * ig * (A(1) - ig));'
    'gf = (T)(gc_all * (A)c_prev * f * (A(1) - f));'
    'go = (T)((A)gh * tc * o * (A(1) - o));'
    'gc_prev = (T)(gc_all * f);',
    'chainerlite_lstm_bwd',
    preamble=_PREAMBLE,
)
