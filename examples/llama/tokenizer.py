"""A byte-level BPE tokenizer trained at start-up (a few seconds on ~1 MB of text).

Text is split into words (an optional leading space + letters/digits, punctuation runs,
whitespace runs); each word starts as its UTF-8 bytes (ids 0..255) and merges are learned by
repeatedly joining the most frequent adjacent pair. Only the pairs of words that contain the
merged pair are recounted, which keeps training fast in pure Python."""
import collections
import json
import os
import re

_WORD = re.compile(r" ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+")


class ByteBPE:
    def __init__(self, merges=()):
        self.merges = [tuple(m) for m in merges]  # (a, b) -> id 256 + index
        self.ranks = {m: i for i, m in enumerate(self.merges)}
        self.vocab = [bytes([i]) for i in range(256)]
        for a, b in self.merges:
            self.vocab.append(self.vocab[a] + self.vocab[b])
        self._cache = {}

    @property
    def vocab_size(self):
        return 256 + len(self.merges)

    @classmethod
    def train(cls, text, vocab_size):
        if vocab_size < 256:
            raise ValueError(f"vocab_size must be >= 256, got {vocab_size}")
        counts = collections.Counter(_WORD.findall(text))
        words = [list(w.encode("utf-8")) for w in counts]
        freqs = list(counts.values())
        pair_counts = collections.Counter()
        where = collections.defaultdict(set)
        for i, w in enumerate(words):
            f = freqs[i]
            for a, b in zip(w, w[1:]):
                pair_counts[(a, b)] += f
                where[(a, b)].add(i)
        merges = []
        while 256 + len(merges) < vocab_size and pair_counts:
            best = max(pair_counts, key=pair_counts.__getitem__)
            if pair_counts[best] < 2:
                break
            new_id = 256 + len(merges)
            merges.append(best)
            for i in list(where.pop(best, ())):
                w = words[i]
                f = freqs[i]
                for a, b in zip(w, w[1:]):
                    pair_counts[(a, b)] -= f
                    if pair_counts[(a, b)] <= 0:
                        del pair_counts[(a, b)]
                merged = []
                j = 0
                while j < len(w):
                    if j + 1 < len(w) and w[j] == best[0] and w[j + 1] == best[1]:
                        merged.append(new_id)
                        j += 2
                    else:
                        merged.append(w[j])
                        j += 1
                words[i] = merged
                for a, b in zip(merged, merged[1:]):
                    pair_counts[(a, b)] += f
                    where[(a, b)].add(i)
            pair_counts.pop(best, None)
        return cls(merges)

    def _encode_word(self, word):
        ids = self._cache.get(word)
        if ids is not None:
            return ids
        ids = list(word.encode("utf-8"))
        while len(ids) > 1:
            best_rank, best_j = None, -1
            for j in range(len(ids) - 1):
                r = self.ranks.get((ids[j], ids[j + 1]))
                if r is not None and (best_rank is None or r < best_rank):
                    best_rank, best_j = r, j
            if best_rank is None:
                break
            ids[best_j:best_j + 2] = [256 + best_rank]
        self._cache[word] = ids
        return ids

    def encode(self, text):
        out = []
        for w in _WORD.findall(text):
            out.extend(self._encode_word(w))
        return out

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")

    def save(self, path):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"type": "byte_bpe", "merges": self.merges}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    @classmethod
    def load(cls, path):
        with open(path) as f:
            data = json.load(f)
        return cls(data["merges"])
