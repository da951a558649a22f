"""Keeps the inputs of every function node reachable while a model is traced."""

import chainerlite


class _FunctionRecorder(chainerlite.FunctionHook):
    """Collects ``(function, input arrays, link inputs then)`` per call."""

    name = 'OnnxExportRecorder'

    def __init__(self, owner):
        self.owner = owner

    def forward_postprocess(self, function, in_data):
        self.owner._record(function, in_data)


class RetainInputHook(chainerlite.LinkHook):
    """Retains the variables a traced graph needs after the forward pass.

    A function node holds its input variable nodes but not their
    variables; a variable made during the forward pass (a constant, a
    temporary) may be gone when the graph is walked. Inside ``with
    RetainInputHook() as h`` every function input that is not an argument
    of the link being called is kept in ``h.retain_inputs``; one whose
    variable is already gone is kept as a new Variable around its array.
    ``variable_of(node)`` gives the variable kept for a variable node.
    """

    name = 'RetainInputHook'

    def __init__(self):
        self.link_inputs = set()
        self._link_input_vars = []
        self._pending = []
        self._retained = []
        self._by_node = {}
        self._recorder = _FunctionRecorder(self)

    @property
    def retain_inputs(self):
        """The variables kept so far (list)."""
        self._resolve()
        return self._retained

    def _collect(self, args, into):
        if isinstance(args, chainerlite.Variable):
            into.add(id(args))
            self._link_input_vars.append(args)
        elif isinstance(args, (list, tuple)):
            for arg in args:
                self._collect(arg, into)
        elif isinstance(args, dict):
            for arg in args.values():
                self._collect(arg, into)

    def forward_preprocess(self, args):
        self._resolve()
        self._collect(args.args, self.link_inputs)
        self._collect(args.kwargs, self.link_inputs)

    def forward_postprocess(self, args):
        self._resolve()
        self.link_inputs.clear()

    def _record(self, function, in_data):
        # the node's inputs are linked after the hooks run: look later
        self._resolve()
        self._pending.append((function, in_data, frozenset(self.link_inputs)))

    def _resolve(self):
        pending, self._pending = self._pending, []
        for function, in_data, link_inputs in pending:
            inodes = function.inputs
            if inodes is None:  # the call failed before linking its inputs
                continue
            for inode, array in zip(inodes, in_data):
                if id(inode) in self._by_node:
                    continue
                var = inode.get_variable_or_none()
                if var is None:
                    var = chainerlite.Variable(array)
                elif id(var) in link_inputs:
                    continue
                self._by_node[id(inode)] = (inode, var)
                self._retained.append(var)

    def variable_of(self, node):
        """The Variable kept for variable node ``node``, else its live one."""
        self._resolve()
        entry = self._by_node.get(id(node))
        if entry is not None:
            return entry[1]
        return node.get_variable_or_none()

    def __enter__(self):
        self._recorder.__enter__()
        return super().__enter__()

    def __exit__(self, *exc_info):
        try:
            self._resolve()
        finally:
            self._recorder.__exit__(*exc_info)
            super().__exit__(*exc_info)
