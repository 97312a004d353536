"""VTU time series: what ParaView reads back (meshio), the .pvd index, contact pressure."""

import xml.etree.ElementTree as ET

import meshio
import numpy as np
import pytest

import fem2d
from fem2d.fe.elasticity import elasticity_matrix, nodal_stresses
from fem2d.io.vtu import auto_stride, contact_pressure, slave_areas, write_vtu_series


@pytest.fixture(scope="module")
def beam():
    return fem2d.run("cantilever", {"time.end": 0.02, "report.modes": 0, "report.at_times": [0.01],
                                    "report.snapshots": 10})


def test_snapshots_follow_the_stride(beam):
    snaps = beam.fields.snapshots
    assert snaps.row.tolist() == [0, 10, 20, 30, 40]
    assert np.allclose(snaps.time, [0.0, 0.005, 0.01, 0.015, 0.02])
    # the reported dof of the history is the same number as in the snapshot
    dof = beam.fields.report_dof
    assert np.array_equal(snaps.u[:, dof], beam.histories["u"][snaps.row])


def test_series_reads_back_in_meshio_and_pvd_lists_every_file(beam, tmp_path):
    pvd = write_vtu_series(beam, tmp_path)
    assert pvd == tmp_path / "cantilever.pvd"
    root = ET.parse(pvd).getroot()
    assert root.get("type") == "Collection"
    sets = root.find("Collection").findall("DataSet")
    assert [float(d.get("timestep")) for d in sets] == pytest.approx([0.0, 0.005, 0.01, 0.015, 0.02])
    files = [d.get("file") for d in sets]
    assert files == [f"vtu/cantilever_{k:04d}.vtu" for k in range(5)]
    snaps = beam.fields.snapshots
    mesh = beam.fields.system.mesh
    last = meshio.read(tmp_path / files[-1])
    assert [c.type for c in last.cells] == ["quad8"] and len(last.cells[0].data) == 80
    assert np.array_equal(last.cells[0].data, mesh.group("BODY").nodes)
    u = snaps.u[-1]
    disp = last.point_data["displacement"]
    assert disp.shape == (mesh.n_nodes, 3) and np.array_equal(disp[:, 0], u[0::2]) and not np.any(disp[:, 2])
    D = elasticity_matrix(2.1e11, 0.0, "plane_stress")
    sigma = nodal_stresses(mesh.points, mesh.group("BODY"), u, D)
    for k, name in enumerate(("sigma_xx", "sigma_yy", "sigma_xy")):
        assert np.allclose(last.point_data[name], sigma[:, k], rtol=1e-12, atol=1e-6)
    assert np.allclose(last.point_data["von_mises"], np.sqrt(sigma[:, 0] ** 2 - sigma[:, 0] * sigma[:, 1]
                                                             + sigma[:, 1] ** 2 + 3 * sigma[:, 2] ** 2))
    assert "contact_pressure" not in last.point_data  # no contact in this case
    first = meshio.read(tmp_path / files[0])
    assert not np.any(first.point_data["displacement"])
    assert not list(tmp_path.rglob("*.tmp"))


def test_run_without_snapshots_is_refused(tmp_path):
    result = fem2d.run("cantilever", {"time.end": 0.002, "report.modes": 0, "report.at_times": []})
    with pytest.raises(ValueError, match="report.snapshots"):
        write_vtu_series(result, tmp_path)
    assert auto_stride(result.case) == 1
    assert auto_stride(fem2d.load_case("sdnv104a")) == 2  # 350 steps -> at most 200 frames


@pytest.mark.parametrize("element, expected", [("quad4", [0.1, 0.2, 0.2, 0.2, 0.2, 0.1]),
                                               ("quad8", [1 / 30, 2 / 15, 1 / 15, 2 / 15, 1 / 15, 2 / 15,
                                                          1 / 15, 2 / 15, 1 / 15, 2 / 15, 1 / 30])])
def test_contact_pressure_in_the_series(tmp_path, element, expected):
    result = fem2d.run("sdnv104a", {"time.end": 0.2, "report.snapshots": 5, "mesh.element": element})
    system = result.fields.system
    zone = system.zones[0]
    areas = slave_areas(result.fields.model, system)
    order = np.argsort(system.mesh.points[zone.slave_nodes, 0])
    assert np.allclose(areas[order], expected)  # L/2 per SEG2 end; L/6, 2L/3 on SEG3
    pvd = write_vtu_series(result, tmp_path)
    files = [d.get("file") for d in ET.parse(pvd).getroot().iter("DataSet")]
    last = meshio.read(tmp_path / files[-1])
    p = last.point_data["contact_pressure"]
    forces = result.histories["slave_normal_force"][result.fields.snapshots.row[-1]]
    assert np.allclose(p[zone.slave_nodes], forces / areas)
    assert not np.any(np.delete(p, zone.slave_nodes))
    # after the ramp the block carries its 7e4 N weight (up to its vertical vibration): about 70 kPa on 1 m
    assert np.sum(p[zone.slave_nodes] * areas) == pytest.approx(result.histories["normal_force"][-1], rel=1e-12)
    assert np.sum(p[zone.slave_nodes] * areas) == pytest.approx(7e4, rel=0.01)
    assert contact_pressure(np.array([1.0, 2.0]), np.array([0.5, 0.0])).tolist() == [2.0, 0.0]
