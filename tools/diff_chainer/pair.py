"""Running one generated case on both libraries, stage by stage.

A case is a list of stages, each a function of the library (the ``chainer``
or ``chainerlite`` module) and a per-library scratch dict that earlier
stages filled. Stages run on Chainer and then on chainerlite; the case stops
at the first stage where either side raised, so that what follows is only
compared where both had something to work on.

Where Chainer gives no answer (it raises where chainerlite computes: a
method it leaves unimplemented, a second order it refuses, a dtype its type
check refuses; or it answers in a form its own API refuses: a gradient in
another dtype than its input's), a runner may name a reference for the stage
(``references.py``); the case then also counts as agreeing "with the
reference" when chainerlite's result matches it. The strict count (agreed
with Chainer alone) never changes: both are kept.
"""

import dataclasses
import math
import time

from hypothesis import HealthCheck
from hypothesis import Phase
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky

from tools.diff_chainer import compare
from tools.diff_chainer import draws
from tools.diff_chainer import kinds as kinds_module
from tools.diff_chainer import labels


@dataclasses.dataclass
class Tally:
    """The cases of one public name, and the aspects in which they differed."""

    cases: int = 0
    agreed: int = 0  # with Chainer in every aspect
    # with Chainer, or with the reference where Chainer gave no answer
    agreed_with_references: int = 0
    referenced: int = 0  # cases in which a reference stood in for Chainer
    both_ran: int = 0  # cases in which neither side raised at any stage
    aspects: dict = dataclasses.field(default_factory=dict)  # aspect -> cases
    examples: dict = dataclasses.field(default_factory=dict)  # aspect -> first one
    # kind of a disagreeing case's first difference -> cases (kinds.py)
    kinds: dict = dataclasses.field(default_factory=dict)
    # cases whose hooks saw other node labels than Chainer's (labels.py)
    labels_differed: int = 0

    def add(self, diffs, ran, label='', remaining=None, referenced=False):
        """Adds a case that differed from Chainer in ``diffs`` and, after the
        references, in ``remaining`` (``diffs`` when there was none).

        A difference in the labels hooks see (``labels.py``) is recorded as
        an aspect (the baseline lists the known ones) and counted in
        ``labels_differed``, not in the shares: those score the results."""
        scored = [d for d in diffs if not labels.is_labels_aspect(d[0])]
        if remaining is not None:
            remaining = [d for d in remaining if not labels.is_labels_aspect(d[0])]
        self.labels_differed += len(scored) < len(diffs)
        self.cases += 1
        self.both_ran += ran
        self.referenced += referenced
        if not scored:
            self.agreed += 1
        else:
            kind = kinds_module.of(*scored[0])
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if not (scored if remaining is None else remaining):
            self.agreed_with_references += 1
        for aspect in sorted({a for a, _ in diffs}):
            self.aspects[aspect] = self.aspects.get(aspect, 0) + 1
            if aspect not in self.examples:
                detail = '; '.join(d for a, d in diffs if a == aspect)
                self.examples[aspect] = f'{label}: {detail}'[:400]


def aspect_of(stage_name, expected, actual):
    """The aspect a stage's difference counts against: the stage, and
    whether only the exception type or raising at all differed."""
    if expected.raised and actual.raised:
        return f'{stage_name}:error-type'
    if expected.raised or actual.raised:
        return f'{stage_name}:raises'
    return stage_name


def run_case(libs, stages, tally, label='', references=None):
    """Runs ``stages`` (name, fn(lib, scratch)) on both libraries, Chainer
    first, and adds the case to ``tally``. ``references`` maps a stage name
    to ``fn(libs, scratch, outcomes)`` giving a ``references.Reference``
    (or None), asked for a stage where the two differ (each maker states
    where Chainer gives no answer: it raised, or its answer is of a form its
    own API refuses); a reference value stands in only where chainerlite
    answered, an expected exception also where it raised. A mismatch with
    it is the aspect ``STAGE:reference``."""
    scratch = [{} for _ in libs]
    scratch[1]['peer'] = scratch[0]  # chainerlite's stages may copy from Chainer's
    diffs, remaining = [], []
    referenced = False
    ran = True
    for stage_name, stage in stages:
        outcomes = [
            compare.run(lambda lib=lib, s=s: stage(lib, s))
            for lib, s in zip(libs, scratch)
        ]
        found = compare.differences(outcomes[0], outcomes[1], stage_name)
        aspect = aspect_of(stage_name, *outcomes)
        diffs += [(aspect, d) for d in found]
        reference = None
        if found and references:
            make = references.get(stage_name)
            reference = make and make(libs, scratch, outcomes)
            if reference is not None and outcomes[1].raised and not reference.error:
                reference = None  # a value stands in only where chainerlite answered
        if reference is None:
            remaining += [(aspect, d) for d in found]
        else:
            referenced = True
            missed = reference.against(outcomes[1], stage_name)
            remaining += [(f'{stage_name}:reference', d) for d in missed]
            diffs += [(f'{stage_name}:reference', d) for d in missed]
        if outcomes[0].raised or outcomes[1].raised:
            ran = False
            break
    tally.add(diffs, ran, label, remaining, referenced)


def explore(draw_case, examples, seconds):
    """Calls ``draw_case(data)`` for up to ``examples`` generated examples
    within ``seconds`` (None: no time bound, so the same examples every run:
    Hypothesis draws them derandomized, from no literal of the code around
    them: ``draws.py``)."""
    deadline = time.monotonic() + (math.inf if seconds is None else seconds)

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def body(data):
        if time.monotonic() < deadline:  # then the remaining calls draw nothing
            draw_case(data)

    try:
        with draws.without_local_constants():
            body()
    except Flaky:
        # Hypothesis replays some prefixes; one replayed after the deadline
        # draws nothing and reads as inconsistent. The cases run are kept.
        if time.monotonic() < deadline:
            raise


def serialized(key):
    """A stage that gives what ``DictionarySerializer`` saves of ``scratch[key]``."""

    def stage(lib, scratch):
        target = lib.serializers.DictionarySerializer()
        target.save(scratch[key])
        return target.target

    return stage
