from collections.abc import Callable


def test_same_resource_under_other_urls(findings: Callable[[str], list[str]]) -> None:
    # bennun2019demystifying comes first in path order, so the other two are reported;
    # uber-horovod is the same repository across the uber -> horovod transfer; the two
    # deep links into tensorflow/lingvo are different resources and pass.
    # The café and scaling pages are one host each however it is written: Unicode or its
    # punycode A-label; a zero-width space, a soft hyphen or full-width letters hidden in it.
    assert findings("duplicate-identity") == [
        "data/articles/cafe-notes.yml:4:6: error: same URL xn--caf-dma.example.org/notes as "
        "data/articles/cafe-notes-punycode.yml: one resource gets one entry; merge them (extra "
        "URLs go under 'links') [duplicate-identity]",
        *(
            f"data/articles/scaling-notes{suffix}.yml:4:6: error: same URL "
            "scaling.example.org/notes as data/articles/scaling-notes-shy.yml: one resource gets "
            "one entry; merge them (extra URLs go under 'links') [duplicate-identity]"
            for suffix in ("-wide", "-zwsp", "")
        ),
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
