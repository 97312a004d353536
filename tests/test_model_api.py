"""The composition API: model objects check their fields, errors name the
object and field in Python and the case key when they came from a case file."""

import numpy as np
import pytest

import fem2d
from fem2d.errors import InputError, ModelError


@pytest.fixture(scope="module")
def block_mesh():
    return fem2d.mesh.sliding_block()


def test_objects_check_their_fields_and_name_them():
    with pytest.raises(ModelError, match=r"^Body\('PATIN'\)\.rho: expected a density >= 0"):
        fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=-1.0)
    with pytest.raises(ModelError, match=r"^Support\('R1'\)\.components"):
        fem2d.Support("R1", components=())
    with pytest.raises(ModelError, match=r"^Pressure|^Traction\('RIGHT'\)\.vector: expected two"):
        fem2d.Traction("RIGHT", (1.0, 2.0, 3.0))
    with pytest.raises(ModelError, match=r"^TimeStepping\.dt: 1.0 is larger than end = 0.5"):
        fem2d.TimeStepping(dt=1.0, end=0.5)


def test_assembly_errors_name_the_object_and_field(block_mesh):
    body = fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0)
    with pytest.raises(ModelError, match=r"^Pressure\('NOPE'\)\.group: .*no group named 'NOPE'") as err:
        fem2d.Model(block_mesh, [body], loads=[fem2d.Pressure("NOPE", 1.0)]).assemble()
    assert err.value.field == "group" and isinstance(err.value.owner, fem2d.Pressure)
    with pytest.raises(ModelError, match=r"^Contact\.master: group 'A' holds point cells; expected edges"):
        fem2d.Model(block_mesh, [body], contacts=[fem2d.Contact("LESC", "A")]).assemble()
    with pytest.raises(ModelError, match=r"^Model\.bodies: nodes \[.*\] have free dofs but no mass"):
        fem2d.Model(block_mesh, [fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=0.0)]).assemble()


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"materials.0.group": "NOPE"}, r"sdnv104a.toml: materials\[0\].group: .*no group named 'NOPE'"),
        ({"loads.1.group": "PATIN"}, r"sdnv104a.toml: loads\[1\].group: group 'PATIN' holds quad4 cells"),
        ({"report.node": "LESC"}, r"sdnv104a.toml: report.node: group 'LESC' has 6 nodes; expected one"),
        ({"contact.master": "A"}, r"sdnv104a.toml: contact.master: group 'A' holds point cells"),
        ({"supports.0.group": "FSUP", "materials.1.rho": 0.0}, r"sdnv104a.toml: materials: nodes \["),
    ],
)
def test_case_errors_name_the_key_the_user_wrote(overrides, message):
    with pytest.raises(InputError, match=message) as err:
        fem2d.run("sdnv104a", {**overrides, "time.end": 0.01})
    assert "\n" not in str(err.value)


def test_composed_model_is_the_case_model(block_mesh):
    """The case layer builds the very objects a user composes: the same model gives the same numbers."""
    from fem2d.case.build import build_analysis

    case = fem2d.load_case("sdnv104a", {"time.end": 0.2, "report.at_times": [0.1]})
    built = build_analysis(case).analysis
    assert built.model.bodies[0] == fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0)
    assert built.model.supports[1] == fem2d.Support("R1")
    assert built.model.contacts[0].slave == "LESC" and built.model.contacts[0].mu == 0.3
    assert built.stepping == fem2d.TimeStepping(dt=0.01, end=0.2, extrapolate=True)
    assert built.scheme == fem2d.NewmarkScheme.generalized_alpha(0.7)
    assert built.report == fem2d.Report("A", "dx", at_times=[0.1], extrema=2)
    ramp = fem2d.PiecewiseLinear((0.0, 0.07), (0.0, 1.0))
    model = fem2d.Model(
        block_mesh,
        bodies=[fem2d.Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0), fem2d.Body("BATI", E=1e11, nu=0.0, rho=0.0)],
        supports=[fem2d.Support("BATI"), fem2d.Support("R1"), fem2d.Support("R2")],
        springs=[fem2d.Spring("RESLAT", k_axial=12e3)],
        loads=[fem2d.Pressure("FSUP", 7e4, ramp), fem2d.Pressure("FLAT", 2e5, ramp)],
        contacts=[fem2d.Contact("LESC", "LMAI", mu=0.3)],
    )
    composed = fem2d.DirectAnalysis(model, fem2d.TimeStepping(dt=0.01, end=0.2, extrapolate=True),
                                    fem2d.NewmarkScheme.generalized_alpha(0.7),
                                    report=fem2d.Report("A", at_times=[0.1])).run()
    from_case = fem2d.run(case)
    assert composed.histories["u"].tolist() == from_case.histories["u"].tolist()
    assert composed.quantities == from_case.quantities and composed.case is None


def test_a_model_assembled_densely_is_the_sparse_one(block_mesh):
    """``Model.assemble(dense=True)`` (the modal path of a small model, NumPy only) gives the
    CSR system's matrices as ndarrays, equal to round-off, and the same everything else;
    ``Model.n_dofs`` counts the rigid obstacles' nodes as the assembly adds them."""
    model = fem2d.Model(
        block_mesh,
        bodies=[fem2d.Body("PATIN", E=2.1e11, nu=0.3, rho=7000.0, rayleigh=(0.5, 1e-4)),
                fem2d.Body("BATI", E=1e11, nu=0.0, rho=7000.0)],
        supports=[fem2d.Support("BATI"), fem2d.Support("R1", value=1e-3), fem2d.Support("R2")],
        springs=[fem2d.Spring("RESLAT", k_axial=12e3), fem2d.GroundSpring("A", (12e3, 3e3))],
        masses=[fem2d.PointMass("A", 2.0)],
        loads=[fem2d.Pressure("FSUP", 7e4, fem2d.Sine(1.0, 3.0))],
        initial=[fem2d.InitialCondition("PATIN", velocity=(1.0, 0.0))],
        contacts=[fem2d.Contact("LESC", fem2d.RigidPlane((0.0, -1.0), (0.0, 1.0))),
                  fem2d.Contact("FLAT", fem2d.RigidCircle((5.0, 0.0), 0.5))],
    )
    sparse, dense = model.assemble(), model.assemble(dense=True)
    assert model.n_dofs == sparse.n_dofs == dense.n_dofs == 2 * (block_mesh.n_nodes + 2 + 1)
    assert dense.dense and not sparse.dense
    for name in ("K", "M", "K_springs", "C", "K_free", "M_free", "C_free"):
        a, b = getattr(dense, name), getattr(sparse, name).toarray()
        assert isinstance(a, np.ndarray) and a.shape == b.shape, name
        np.testing.assert_allclose(a, b, rtol=0.0, atol=4 * np.finfo(float).eps * np.abs(b).max(), err_msg=name)
    for name in ("fixed", "fixed_values", "free", "initial_velocity"):
        np.testing.assert_array_equal(getattr(dense, name), getattr(sparse, name), err_msg=name)
    np.testing.assert_allclose(dense.force_free(0.3), sparse.force_free(0.3), rtol=1e-14, atol=1e-9)
    assert [z.name for z in dense.zones] == [z.name for z in sparse.zones]
    moving = fem2d.Model(block_mesh, model.bodies, [fem2d.Support("BATI"), fem2d.Support("R1"), fem2d.Support("R2"),
                                                    fem2d.Support("A", function=fem2d.Sine())])
    for as_dense in (False, True):  # a displacement history under a body with mass: the same error
        with pytest.raises(ModelError, match=r"^Support\('A'\)\.function: a displacement history needs a massless"):
            moving.assemble(dense=as_dense)
