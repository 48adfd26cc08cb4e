"""A profile's JSON says what it is and where it came from, as a tune's does: versions and
every strategy played, with its source hash."""

from simulator.analysis.profiling import _provenance
from simulator.analysis.profiling.core import make_plan


def test_provenance_names_every_strategy_played_with_its_source_hash():
    plan = make_plan("spokelse", None, 100, 10, 7, None)
    prov = _provenance(plan)
    assert prov["kind"] == "profile" and prov["seed"] == 7
    specs = [s["spec"].split(":")[0] for s in prov["strategies"]]
    assert set(specs) == {"random", "threshold", "expect"}
    assert all(len(s["source_sha256"]) > 0 for s in prov["strategies"])
    assert {"kortsim", "numba", "numpy", "python", "machine"} <= set(prov)


def test_a_strategy_in_several_roles_is_listed_once():
    plan = make_plan("spokelse", "threshold", 100, 10, 7, None)
    specs = [s["spec"] for s in _provenance(plan)["strategies"]]
    assert len(specs) == len(set(specs))
