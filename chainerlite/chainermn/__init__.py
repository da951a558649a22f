"""ChainerMN's API: data-parallel training over MPI (mpi4py).

``import chainerlite.chainermn`` never needs MPI; the first communicator
needs mpi4py and an MPI runtime (``pip install "chainerlite[mpi]"``).
Run a program with ``mpiexec -n 2 python train.py``.
"""

from chainerlite.chainermn import communicators  # NOQA
from chainerlite.chainermn import datasets  # NOQA
from chainerlite.chainermn import extensions  # NOQA
from chainerlite.chainermn import functions  # NOQA
from chainerlite.chainermn import global_except_hook  # NOQA
from chainerlite.chainermn import iterators  # NOQA
from chainerlite.chainermn import links  # NOQA
from chainerlite.chainermn import optimizers  # NOQA

from chainerlite.chainermn.communicators import CommunicatorBase  # NOQA
from chainerlite.chainermn.communicators import create_communicator  # NOQA
from chainerlite.chainermn.datasets import scatter_dataset  # NOQA
from chainerlite.chainermn.datasets import scatter_index  # NOQA
from chainerlite.chainermn.extensions import create_multi_node_checkpointer  # NOQA
from chainerlite.chainermn.extensions import create_multi_node_evaluator  # NOQA
from chainerlite.chainermn.links import MultiNodeChainList  # NOQA
from chainerlite.chainermn.optimizers import create_multi_node_optimizer  # NOQA
