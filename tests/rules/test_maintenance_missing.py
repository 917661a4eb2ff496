from collections.abc import Callable


def test_software_and_repository_benchmarks_give_their_state(
    findings: Callable[[str], list[str]],
) -> None:
    message = (
        "warning: software entries say whether the project is maintained: add maintenance: "
        "with state, checked, source and evidence (state: unknown when it cannot be "
        "established) [maintenance-missing]"
    )
    assert findings("maintenance-missing") == [
        f"data/benchmarks/repobench.yml:1:5: {message}",
        f"data/frameworks/nostate.yml:1:5: {message}",
    ]
