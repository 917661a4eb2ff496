"""Picking ids: BibTeX-style keys for papers, kebab-case names otherwise, unique."""

import pytest

from ddl_catalog.edit import new_id


@pytest.mark.parametrize(
    ("authors", "year", "title", "expected"),
    [
        (
            ["Jeffrey Dean", "Greg Corrado"],
            2012,
            "Large Scale Distributed Deep Networks",
            "dean2012large",
        ),
        (
            ["Tal Ben-Nun"],
            2019,
            "Demystifying Parallel and Distributed Deep Learning",
            "bennun2019demystifying",
        ),
        (["Martín Abadi"], 2016, "TensorFlow: Large-Scale Machine Learning", "abadi2016tensorflow"),
        (
            ["Priya Goyal"],
            2017,
            "Accurate, Large Minibatch SGD: Training ImageNet in 1 Hour",
            "goyal2017accurate",
        ),
        (["Yang You"], 2017, "On the Scalability of the Deep Learning", "you2017scalability"),
        (["Dean, Jeffrey"], 2012, "The Large Thing", "dean2012large"),
        (["Guy Steele Jr."], 1990, "A Language", "steele1990language"),
        ([], 2012, "Large", None),
        (["Jeffrey Dean"], None, "Large", None),
    ],
)
def test_paper_id(authors: list[str], year: int | None, title: str, expected: str | None) -> None:
    assert new_id.paper_id(authors, year, title) == expected


def test_kebab_and_unique() -> None:
    assert new_id.kebab("Horovod") == "horovod"
    assert (
        new_id.kebab("Megatron-LM: Training Multi-Billion") == "megatron-lm-training-multi-billion"
    )
    assert new_id.kebab("Café  ünïcode!") == "cafe-unicode"
    assert len(new_id.kebab("word " * 40)) <= new_id.MAX_LENGTH
    assert new_id.unique("horovod", {"nccl"}) == "horovod"
    assert new_id.unique("horovod", {"horovod", "horovod-2"}) == "horovod-3"
