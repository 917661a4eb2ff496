from collections.abc import Callable


def test_same_resource_under_other_urls(findings: Callable[[str], list[str]]) -> None:
    # bennun2019demystifying comes first in path order, so the other two are reported;
    # uber-horovod is the same repository across the uber -> horovod transfer; the two
    # deep links into tensorflow/lingvo are different resources and pass.
    assert findings("duplicate-identity") == [
        "data/frameworks/uber-horovod.yml:4:6: error: same GitHub repository horovod/horovod as "
        "data/frameworks/horovod.yml: one resource gets one entry; merge them (extra URLs go "
        "under 'links') [duplicate-identity]",
        "data/papers/demystifying-doi.yml:4:6: error: same DOI 10.1145/3320060 as "
        "data/papers/bennun2019demystifying.yml: one resource gets one entry; merge them (extra "
        "URLs go under 'links') [duplicate-identity]",
        "data/papers/demystifying-pdf.yml:4:6: error: same arXiv id 1802.09941 as "
        "data/papers/bennun2019demystifying.yml: one resource gets one entry; merge them (extra "
        "URLs go under 'links') [duplicate-identity]",
    ]
