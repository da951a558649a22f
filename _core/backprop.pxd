# Variable.backward (node.pyx) runs its pass through this.

cpdef list backprop(list outputs, list grad_outputs, bint retain_grad,
                    bint enable_double_backprop, loss_scale,
                    list inputs=*, bint set_grad=*, list seeds=*,
                    retain_graph=*, bint handed=*)
