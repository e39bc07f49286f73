"""skiff.io: datasets, samplers, DataLoader (single process and worker processes)."""
import numpy as np
import pytest

import skiff
from skiff.io import (BatchSampler, DataLoader, Dataset, IterableDataset, RandomSampler,
                      SequenceSampler, Subset, TensorDataset, get_worker_info, random_split)


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return np.array([i, i * i], dtype=np.float32), np.int64(i % 3)


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        for i in range(start, self.n, step):
            yield np.array([i], dtype=np.int64)


class Failing(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            raise KeyError("sample 5 is broken")
        return np.float32(i)


def test_batches_are_tensors_with_stacked_fields():
    loader = DataLoader(Squares(10), batch_size=4)
    batches = list(loader)
    assert len(loader) == 3 and len(batches) == 3
    x, y = batches[0]
    assert isinstance(x, skiff.Tensor) and isinstance(y, skiff.Tensor)
    assert x.shape == [4, 2] and y.shape == [4]
    np.testing.assert_array_equal(x.numpy()[:, 0], [0, 1, 2, 3])
    assert str(y.dtype).endswith("int64")
    assert batches[-1][0].shape == [2, 2]


def test_drop_last_and_shuffle_cover_everything_once():
    np.random.seed(3)
    loader = DataLoader(Squares(10), batch_size=3, shuffle=True, drop_last=True)
    assert len(loader) == 3
    seen = np.concatenate([x.numpy()[:, 0] for x, _ in loader])
    assert len(seen) == 9 and len(set(seen.tolist())) == 9
    np.random.seed(3)
    again = np.concatenate([x.numpy()[:, 0] for x, _ in loader])
    np.testing.assert_array_equal(seen, again)
    assert sorted(seen.tolist()) != seen.tolist() or len(seen) < 3


def test_collate_fn_and_dict_samples():
    class Dicts(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return {"x": np.full([3], i, np.float32), "name": f"s{i}"}

    batch = next(iter(DataLoader(Dicts(), batch_size=2)))
    assert batch["x"].shape == [2, 3] and batch["name"] == ["s0", "s1"]
    summed = list(DataLoader(Squares(4), batch_size=2,
                             collate_fn=lambda s: np.stack([a for a, _ in s]).sum(0)))
    np.testing.assert_allclose(summed[0].numpy(), [1, 1])


def test_tensor_dataset_and_subset_and_split():
    x = skiff.to_tensor(np.arange(12, dtype=np.float32).reshape(6, 2))
    y = skiff.to_tensor(np.arange(6, dtype=np.int64))
    ds = TensorDataset([x, y])
    assert len(ds) == 6
    a, b = ds[2]
    np.testing.assert_array_equal(a.numpy(), [4, 5])
    with pytest.raises(ValueError, match="same first dimension"):
        TensorDataset([x, skiff.to_tensor(np.zeros(5, np.float32))])
    sub = Subset(ds, [5, 0])
    assert int(sub[0][1].item()) == 5
    parts = random_split(Squares(10), [7, 3], generator=0)
    assert [len(p) for p in parts] == [7, 3]
    assert sorted(parts[0].indices + parts[1].indices) == list(range(10))
    with pytest.raises(ValueError, match="sum to the dataset length 10"):
        random_split(Squares(10), [4, 4])


def test_batch_sampler_arguments():
    bs = BatchSampler(sampler=SequenceSampler(Squares(5)), batch_size=2)
    assert list(bs) == [[0, 1], [2, 3], [4]]
    assert len(BatchSampler(dataset=Squares(5), batch_size=2, drop_last=True)) == 2
    with pytest.raises(ValueError, match="batch_size"):
        BatchSampler(dataset=Squares(5), batch_size=0)
    with pytest.raises(ValueError, match="one of 'dataset' and 'sampler'"):
        BatchSampler(batch_size=2)
    with pytest.raises(TypeError, match="shuffle"):
        BatchSampler(dataset=Squares(5), shuffle=1)
    loader = DataLoader(Squares(5), batch_sampler=bs)
    assert [x.shape[0] for x, _ in loader] == [2, 2, 1]
    rs = RandomSampler(Squares(6))
    assert sorted(rs) == list(range(6))


def test_workers_give_the_same_batches_in_order():
    single = [x.numpy() for x, _ in DataLoader(Squares(23), batch_size=4)]
    multi = [x.numpy() for x, _ in DataLoader(Squares(23), batch_size=4, num_workers=2)]
    assert len(single) == len(multi) == 6
    for a, b in zip(single, multi):
        np.testing.assert_array_equal(a, b)


def test_worker_error_reaches_the_main_process():
    with pytest.raises(RuntimeError, match="sample 5 is broken"):
        list(DataLoader(Failing(), batch_size=2, num_workers=2))


def test_iterable_dataset_single_and_workers():
    single = np.concatenate([b.numpy().ravel() for b in DataLoader(Stream(10), batch_size=3)])
    np.testing.assert_array_equal(single, np.arange(10))
    multi = np.concatenate([b.numpy().ravel()
                            for b in DataLoader(Stream(10), batch_size=3, num_workers=2)])
    assert sorted(multi.tolist()) == list(range(10))
    with pytest.raises(ValueError, match="cannot be shuffled"):
        DataLoader(Stream(3), shuffle=True)
    with pytest.raises(TypeError, match="IterableDataset is unknown"):
        len(DataLoader(Stream(3)))


def test_unbatched_loading_and_bad_arguments():
    items = list(DataLoader(Squares(3), batch_size=None))
    assert len(items) == 3 and items[1][0].shape == [2]
    with pytest.raises(ValueError, match="num_workers"):
        DataLoader(Squares(3), num_workers=-1)
    with pytest.raises(ValueError, match="batch_sampler"):
        DataLoader(Squares(3), batch_sampler=BatchSampler(dataset=Squares(3)), batch_size=2)
