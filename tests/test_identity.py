"""URL normalisation and canonical identity, on every form seed-research §3.3 lists."""

from __future__ import annotations

import pytest

from ddl_catalog import identity as ident


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/abs/1802.09941",
        "https://arxiv.org/pdf/1802.09941.pdf",
        "http://arxiv.org/abs/1802.09941",
        "https://arxiv.org/abs/1802.09941v3",
        "https://arxiv.org/pdf/1802.09941v2",
        "https://arxiv.org/abs/1802.09941.pdf",  # malformed abs/ID.pdf, as in the seeds
        "https://arxiv.org/abs/1802.09941?context=cs",
        "https://www.arxiv.org/abs/1802.09941/",
        "https://export.arxiv.org/abs/1802.09941",
    ],
)
def test_arxiv_forms_share_one_id(url: str) -> None:
    assert ident.arxiv_id(url) == "1802.09941"
    assert ident.normalize_url(url) == "arxiv.org/abs/1802.09941"


def test_old_style_arxiv_ids_and_bare_forms() -> None:
    assert ident.arxiv_id("https://arxiv.org/abs/cs/0501001v2") == "cs/0501001"
    assert ident.normalize_arxiv("arXiv:1511.06051v4") == "1511.06051"
    assert ident.normalize_arxiv("not an id") is None
    assert ident.normalize_arxiv("ARXIV:math.GT/0309136V1") == "math.GT/0309136"
    assert ident.normalize_arxiv("1802.09941V2") == "1802.09941"
    assert ident.normalize_arxiv("hep-th/9901001") == "hep-th/9901001"
    assert ident.normalize_arxiv("\u212aep-th/9901001") is None  # a Kelvin sign is not a k
    assert ident.arxiv_id("https://example.org/abs/1802.09941") is None


@pytest.mark.parametrize(
    "url",
    [
        "https://doi.org/10.1109/ICDM.2016.0028",
        "http://dx.doi.org/10.1109/icdm.2016.0028",
        "https://doi.org/10.1109%2FICDM.2016.0028",
    ],
)
def test_doi_forms(url: str) -> None:
    assert ident.doi_from_url(url) == "10.1109/icdm.2016.0028"


def test_acm_doi_pages_and_bare_dois() -> None:
    assert ident.doi_from_url("https://dl.acm.org/doi/10.1145/3035918.3035933") == (
        "10.1145/3035918.3035933"
    )
    assert ident.doi_from_url("https://dl.acm.org/doi/abs/10.1145/3320060") == "10.1145/3320060"
    assert ident.normalize_doi("doi:10.1145/3320060") == "10.1145/3320060"
    assert ident.normalize_doi("https://doi.org/10.1007/S10586-007-0012-0") == (
        "10.1007/s10586-007-0012-0"
    )
    assert ident.normalize_doi("3320060") is None


def test_neurips_hash_abstract_and_pdf_forms_match() -> None:
    abstract = (
        "https://proceedings.neurips.cc/paper/2013/hash/"
        "b7bb35b9c6ca2aee2df08cf09d7016c2-Abstract.html"
    )
    pdf = (
        "https://papers.nips.cc/paper_files/paper/2013/file/"
        "b7bb35b9c6ca2aee2df08cf09d7016c2-Paper.pdf"
    )
    assert ident.normalize_url(abstract) == ident.normalize_url(pdf)
    assert ident.normalize_url(abstract) == "neurips/2013/b7bb35b9c6ca2aee2df08cf09d7016c2"


@pytest.mark.parametrize(
    ("url", "repo"),
    [
        ("https://github.com/nvidia/nccl", "nvidia/nccl"),
        ("https://github.com/NVIDIA/nccl/", "nvidia/nccl"),
        ("https://github.com/nvidia/megatron-lm", "nvidia/megatron-lm"),
        (
            "https://github.com//tmulc18/DistributedDeepLearningReads",
            "tmulc18/distributeddeeplearningreads",
        ),
        ("https://github.com/uber/horovod", "horovod/horovod"),
        ("https://github.com/dmlc/mxnet", "apache/mxnet"),
        ("https://github.com/apache/incubator-mxnet", "apache/mxnet"),
        ("https://github.com/horovod/horovod.git", "horovod/horovod"),
        ("https://github.com/microsoft/DeepSpeed", "deepspeedai/deepspeed"),
        ("https://github.com/facebookincubator/gloo", "pytorch/gloo"),
        ("https://github.com/NVIDIA/framework-determinism", "nvidia/framework-reproducibility"),
        ("http://www.github.com/horovod/horovod/tree/master", "horovod/horovod"),
    ],
)
def test_github_repositories(url: str, repo: str) -> None:
    assert ident.github_repo(url) == repo
    assert ident.normalize_url(url) == f"github.com/{repo}"


def test_github_deep_links_are_not_the_repository() -> None:
    code = "https://github.com/tensorflow/lingvo/blob/master/lingvo/core/gpipe.py"
    issue = "https://github.com/tensorflow/lingvo/issues/112"
    assert ident.github_repo(code) is None
    assert ident.github_repo(issue) is None
    assert ident.normalize_url(code) != ident.normalize_url(issue)
    assert ident.github_repo("https://github.com/orgs/horovod") is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "http://www.cs.toronto.edu/~ranzato/publications/DistBeliefNIPS2012_withAppendix.pdf",
            "https://www.cs.toronto.edu/~ranzato/publications/DistBeliefNIPS2012_withAppendix.pdf",
        ),
        (
            "http://websrv.cs.fsu.edu/~xyuan/paper/09jpdc.pdf",
            "https://www.cs.fsu.edu/~xyuan/paper/09jpdc.pdf",
        ),
        (
            "https://blog.skymind.ai/distributed-deep-learning-part-1-an-introduction-to-"
            "distributed-training-of-neural-networks/",
            "http://engineering.skymind.io/distributed-deep-learning-part-1-an-introduction-to-"
            "distributed-training-of-neural-networks",
        ),
        (
            "https://Example.org:443/a//b/?utm_source=x&b=2&a=1#frag",
            "https://example.org/a/b?a=1&b=2",
        ),
        ("https://youtu.be/xtxxLWZznBI", "https://www.youtube.com/watch?v=xtxxLWZznBI&t=10s"),
        (
            "http://net.pku.edu.cn/~cuibin/Papers/2017%20sigmod.pdf",
            "http://net.pku.edu.cn/~cuibin/Papers/2017 sigmod.pdf",
        ),
    ],
)
def test_same_file_same_normal_form(a: str, b: str) -> None:
    assert ident.normalize_url(a) == ident.normalize_url(b)


def test_meaningful_query_strings_are_kept() -> None:
    a = ident.normalize_url("https://dl.acm.org/citation.cfm?id=3035933")
    b = ident.normalize_url("https://dl.acm.org/citation.cfm?id=3035934")
    assert a != b
    assert ident.normalize_url("https://hgpu.org/?p=13046") == "hgpu.org?p=13046"


def test_identity_keys_join_url_and_identifiers() -> None:
    keys = ident.identity_keys(
        {
            "url": "https://github.com/uber/horovod",
            "identifiers": {"arxiv": "1802.05799", "doi": "10.1234/X", "github": "horovod/horovod"},
        }
    )
    assert ("github", "horovod/horovod") in keys
    assert ("arxiv", "1802.05799") in keys
    assert ("doi", "10.1234/x") in keys
    assert ("url", "arxiv.org/abs/1802.05799") in keys
    assert ident.identity_keys({"url": 42}) == set()


def test_repo_as_written_keeps_case_and_skips_transfers() -> None:
    assert ident.repo_as_written("https://github.com/Uber/Horovod.git") == "Uber/Horovod"
    assert ident.repo_as_written("https://github.com/NVIDIA/nccl/tree/master") == "NVIDIA/nccl"
    assert ident.repo_as_written("https://github.com/NVIDIA/nccl/issues/1") is None
    assert ident.repo_as_written("https://gitlab.com/NVIDIA/nccl") is None


@pytest.mark.parametrize(
    ("written", "host"),
    [
        ("ExAmple.COM.", "example.com"),
        ("exa\u200bmple.com", "example.com"),  # zero-width space: ignored by UTS #46
        ("ex\u00adample.com", "example.com"),  # soft hyphen: ignored
        ("\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com", "example.com"),  # full-width
        ("example\u3002com", "example.com"),  # an ideographic full stop separates labels
        ("%65xample.com", "example.com"),  # browsers decode a percent-encoded host first
        ("café.com", "xn--caf-dma.com"),
        ("CAFÉ.com", "xn--caf-dma.com"),
        ("cafe\u0301.com", "xn--caf-dma.com"),  # a combining accent: NFC makes it é
        ("XN--CAF-DMA.com", "xn--caf-dma.com"),
        ("gi\u200dthub.com", "github.com"),  # a joiner IDNA refuses is not a new host either
        ("my_host.example.com", "my_host.example.com"),  # IDNA refuses "_": compared as written
        ("xn--invalid-.example", "xn--invalid-.example"),  # not IDNA: compared as written
    ],
)
def test_hosts_compare_as_idna_maps_them(written: str, host: str) -> None:
    assert ident.normal_host(written) == host


@pytest.mark.parametrize(
    "url",
    [
        "https://café.example.org/notes",
        "https://xn--caf-dma.example.org/notes/",
        "http://CAFÉ.example.org:80/notes",
        "https://caf\u200bé.example.org/notes",
    ],
)
def test_urls_on_one_idna_host_have_one_identity(url: str) -> None:
    assert ident.normalize_url(url) == "xn--caf-dma.example.org/notes"
    assert ident.unicode_host(ident.url_host(url)) == "café.example.org"


def test_identifier_hosts_are_recognised_however_written() -> None:
    wide = "https://\uff47\uff49\uff54\uff48\uff55\uff42.com/horovod/horovod"
    assert ident.github_repo(wide) == "horovod/horovod"
    assert ident.arxiv_id("https://arx\u00adiv.org/abs/1802.09941") == "1802.09941"
