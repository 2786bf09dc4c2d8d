"""Hypothesis strategies over the mutation corpus: a corpus entry and a mutation seed make
one input, so hypothesis explores (and shrinks towards) the entry and the seed."""
from __future__ import annotations

import random

from hypothesis import strategies as st

from tests.fuzz import corpus
from tests.fuzz.mutate import mutate_expression, mutate_project

seeds = st.integers(0, 2 ** 32 - 1)


def _mutated(texts, mutate):
    return st.builds(lambda i, seed: mutate(texts[i], random.Random(seed), texts),
                     st.integers(0, len(texts) - 1), seeds)


def project_texts():
    """A mutated project file of the corpus (samples, the tests' data, validate's cases)."""
    return _mutated([t for _, t in corpus.project_files()], mutate_project)


def small_project_texts():
    """A small single-file project, as it is (a third) or lightly mutated, for the CLI."""
    texts = [t for _, t in corpus.small_projects()]
    return st.one_of(st.sampled_from(texts), _mutated(texts, mutate_project))


_ALPHABET = list("ab1.2e{}<>/@#()[],;:?!~^&|=+-*/\"'\\ \n\t xyz") + ["clamp(", "{./Emission.Rate}",
                                                                       "2147483648", "1e400", "\ufffd"]


def expressions():
    """A mutated corpus expression, or text drawn from the language's own characters."""
    pool = list(corpus.expressions())
    return st.one_of(_mutated(pool, mutate_expression),
                     st.lists(st.sampled_from(_ALPHABET), max_size=60).map("".join))
