"""Paddle's paddle.nn.Decoder, BeamSearchDecoder and dynamic_decode (eager mode).

dynamic_decode calls decoder.initialize once, decoder.step until every entry is finished or
max_step_num is passed, stacks each output field over time and lets the decoder finalize.
BeamSearchDecoder tiles the cell states to [batch, beam, ...], scores each step's log-softmax
plus the beams' running log-probabilities (finished beams put all their mass on end_token),
keeps the top beam_size of beam * vocab candidates, and backtracks the chosen tokens with
gather_tree at the end. The logic and the 1e9 masking constant are Paddle's; the nested
structures (tuples, lists, dicts, namedtuples of tensors) are mapped by the helpers here."""
import collections
import warnings

import numpy as np

from .. import _C

__all__ = ["Decoder", "BeamSearchDecoder", "dynamic_decode"]

_ops = _C.ops


def _map(fn, *structs):
    """fn over the leaves of equally nested structures (namedtuples keep their type)."""
    first = structs[0]
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return type(first)(*[_map(fn, *parts) for parts in zip(*structs)])
    if isinstance(first, (list, tuple)):
        return type(first)(_map(fn, *parts) for parts in zip(*structs))
    if isinstance(first, dict):
        return {k: _map(fn, *[s[k] for s in structs]) for k in first}
    return fn(*structs)


def _leaves(struct):
    if isinstance(struct, (list, tuple)):
        return [leaf for part in struct for leaf in _leaves(part)]
    if isinstance(struct, dict):
        return [leaf for k in struct for leaf in _leaves(struct[k])]
    return [struct]


class Decoder:
    """The interface dynamic_decode drives: initialize(inits) -> (inputs, states, finished),
    step(time, inputs, states, **kwargs) -> (outputs, next_states, next_inputs, finished),
    optionally finalize(outputs, final_states, sequence_lengths)."""

    def initialize(self, inits):
        raise NotImplementedError

    def step(self, time, inputs, states, **kwargs):
        raise NotImplementedError

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        return False


class BeamSearchDecoder(Decoder):
    OutputWrapper = collections.namedtuple("OutputWrapper",
                                           ("scores", "predicted_ids", "parent_ids"))
    StateWrapper = collections.namedtuple("StateWrapper",
                                          ("cell_states", "log_probs", "finished", "lengths"))
    kinf = 1e9

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None,
                 output_fn=None):
        if not isinstance(beam_size, int) or beam_size <= 0:
            raise ValueError(f"(InvalidArgument) BeamSearchDecoder: argument 'beam_size' "
                             f"expected a positive int, got {beam_size}")
        self.cell, self.embedding_fn, self.output_fn = cell, embedding_fn, output_fn
        self.start_token, self.end_token, self.beam_size = start_token, end_token, beam_size

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        """[batch, ...] -> [batch * beam, ...], each entry repeated beam_size times."""
        return _ops.repeat_interleave(x, beam_size, 0)

    def _split_batch_beams(self, x):
        return _ops.reshape(x, [-1, self.beam_size] + list(x.shape[1:]))

    def _merge_batch_beams(self, x):
        return _ops.reshape(x, [-1] + list(x.shape[2:]))

    def _expand_to_beam_size(self, x):
        return _ops.tile(_ops.unsqueeze(x, [1]), [1, self.beam_size] + [1] * (len(x.shape) - 1))

    def _gather(self, x, indices):
        """x [batch, beam, ...] rows picked per batch by indices [batch, beam]."""
        idx = indices
        for _ in range(len(x.shape) - 2):
            idx = _ops.unsqueeze(idx, [-1])
        idx = _ops.expand(idx, list(indices.shape) + list(x.shape[2:]))
        return _ops.take_along_axis(x, idx, 1)

    def initialize(self, initial_cell_states):
        from .. import get_default_dtype
        state = _leaves(initial_cell_states)[0]
        batch = state.shape[0]
        cell_states = _map(self._expand_to_beam_size, initial_cell_states)
        inputs = _ops.full([batch, self.beam_size], float(self.start_token), "int64")
        first = np.array([[0.0] + [-self.kinf] * (self.beam_size - 1)])
        from ..tensor.creation import to_tensor
        log_probs = _ops.cast(_ops.tile(to_tensor(first), [batch, 1]),
                              "float64" if get_default_dtype() == "float64" else "float32")
        finished = _ops.full([batch, self.beam_size], 0.0, "bool")
        lengths = _ops.zeros_like(inputs, "int64")
        if self.embedding_fn is not None:
            inputs = self.embedding_fn(inputs)
        return inputs, self.StateWrapper(cell_states, log_probs, finished, lengths), finished

    def _mask_probs(self, probs, finished):
        noend = np.full([probs.shape[-1]], -self.kinf)
        noend[self.end_token] = 0.0
        from ..tensor.creation import to_tensor
        noend = _ops.cast(to_tensor(noend), probs.dtype)
        done = _ops.unsqueeze(_ops.cast(finished, probs.dtype), [2])
        return _ops.add(_ops.multiply(done, noend),
                        _ops.multiply(probs, _ops.scale(done, -1.0, 1.0, True)))

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        vocab = logits.shape[-1]
        step_log_probs = _ops.log(_ops.softmax(logits, -1))
        step_log_probs = self._mask_probs(step_log_probs, beam_state.finished)
        log_probs = _ops.add(step_log_probs, _ops.unsqueeze(beam_state.log_probs, [2]))
        scores = _ops.reshape(log_probs, [-1, self.beam_size * vocab])
        top_scores, top_idx = _ops.topk(scores, self.beam_size, -1, True, True)
        vocab_t = _ops.full_like(top_idx, vocab, top_idx.dtype)
        beam_idx = _ops.floor_divide(top_idx, vocab_t)
        token_idx = _ops.remainder(top_idx, vocab_t)
        next_log_probs = _ops.take_along_axis(scores, top_idx, 1)
        next_cell_states = _map(lambda x: self._gather(x, beam_idx), next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_idx)
        next_lengths = self._gather(beam_state.lengths, beam_idx)
        next_lengths = _ops.add(next_lengths, _ops.cast(_ops.logical_not(next_finished),
                                                        next_lengths.dtype))
        next_finished = _ops.logical_or(
            next_finished, _ops.equal(token_idx, _ops.full_like(token_idx, self.end_token,
                                                                token_idx.dtype)))
        return (self.OutputWrapper(top_scores, token_idx, beam_idx),
                self.StateWrapper(next_cell_states, next_log_probs, next_finished,
                                  next_lengths))

    def step(self, time, inputs, states, **kwargs):
        inputs = _map(self._merge_batch_beams, inputs)
        cell_states = _map(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map(self._split_batch_beams, cell_outputs)
        next_cell_states = _map(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        output, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        sample_ids = output.predicted_ids.detach()
        next_inputs = self.embedding_fn(sample_ids) if self.embedding_fn else sample_ids
        return output, state, next_inputs, state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        from .functional.gather_tree import gather_tree
        return gather_tree(outputs.predicted_ids, outputs.parent_ids), final_states

    @property
    def tracks_own_finished(self):
        return True


class _Steps:
    """One output leaf's values over time (a leaf to _map, unlike a list)."""

    def __init__(self, x):
        self.items = [x]


def _maybe_copy(state, new_state, finished):
    """new_state where not finished, the old state where finished (impute_finished)."""
    mask = finished
    for _ in range(len(state.shape) - len(finished.shape)):
        mask = _ops.unsqueeze(mask, [-1])
    return _ops.where(_ops.expand(mask, list(state.shape)), state, new_state)


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False,
                   impute_finished=False, is_test=False, return_length=False, **kwargs):
    """-> (final_outputs, final_states[, sequence_lengths]); outputs batch-major unless
    output_time_major."""
    if max_step_num is not None and (not isinstance(max_step_num, int) or max_step_num < 0):
        raise ValueError(f"(InvalidArgument) dynamic_decode: argument 'max_step_num' expected "
                         f"an int >= 0 or None, got {max_step_num!r}")
    inputs, states, finished = decoder.initialize(inits)
    lengths = _ops.zeros_like(finished, "int64")
    outputs = None
    step = 0
    while not bool(_ops.all(finished, [], False)):
        time = _ops.full([1], float(step), "int64")
        step_out, next_states, next_inputs, next_finished = decoder.step(time, inputs, states,
                                                                         **kwargs)
        if not decoder.tracks_own_finished:
            next_finished = _ops.logical_or(next_finished, finished)
            next_lengths = _ops.add(lengths, _ops.cast(_ops.logical_not(finished), "int64"))
            if impute_finished:
                next_states = _map(lambda x, y: _maybe_copy(x, y, finished), states,
                                   next_states)
        else:
            if not hasattr(next_states, "lengths"):
                warnings.warn("`next_states` has no `lengths` attribute, the returned "
                              "`sequence_lengths` would be all zeros.")
            next_lengths = getattr(next_states, "lengths", lengths)
        if outputs is None:
            outputs = _map(_Steps, step_out)
        else:
            _map(lambda x, acc: acc.items.append(x), step_out, outputs)
        inputs, states, finished, lengths = next_inputs, next_states, next_finished, next_lengths
        step += 1
        if max_step_num is not None and step > max_step_num:
            break
    if outputs is None:
        raise ValueError("(InvalidArgument) dynamic_decode: every entry is finished before the "
                         "first step, so there is no output")
    final_outputs = _map(lambda acc: _ops.stack(acc.items, 0), outputs)
    final_states = states
    try:
        final_outputs, final_states = decoder.finalize(final_outputs, final_states, lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        final_outputs = _map(lambda x: _ops.transpose(x, [1, 0] + list(range(2, len(x.shape)))),
                             final_outputs)
    if return_length:
        return final_outputs, final_states, lengths
    return final_outputs, final_states
