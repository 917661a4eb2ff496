from collections.abc import Callable


def test_cells_name_columns_of_catalog_yml(findings: Callable[[str], list[str]]) -> None:
    assert findings("capability-column") == [
        "data/frameworks/fw.yml:16:5: error: capability 'pipe-parallel' is no column of the "
        "matrix; columns are: data-parallel, pipeline-parallel [capability-column]",
    ]
