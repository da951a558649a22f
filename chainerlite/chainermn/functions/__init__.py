"""Differentiable communication between processes."""

from chainerlite.chainermn.functions.collective_communication import allgather  # NOQA
from chainerlite.chainermn.functions.collective_communication import alltoall  # NOQA
from chainerlite.chainermn.functions.collective_communication import bcast  # NOQA
from chainerlite.chainermn.functions.collective_communication import gather  # NOQA
from chainerlite.chainermn.functions.collective_communication import scatter  # NOQA
from chainerlite.chainermn.functions.point_to_point_communication import recv  # NOQA
from chainerlite.chainermn.functions.point_to_point_communication import send  # NOQA
from chainerlite.chainermn.functions.pseudo_connect import pseudo_connect  # NOQA
