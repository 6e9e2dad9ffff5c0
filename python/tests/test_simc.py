"""The Python package against the command line and the laws it must keep.

Run by test/t_python.sh (SIMC_LIB: the library under test; SIMC_BIN: the
simc command of the same build)."""
import ctypes
import gc
import os
import subprocess
import threading

import h5py  # before simc: both in one process must work
import numpy as np
import pytest

import simc

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
GRIPPER = os.path.join(ROOT, "test", "gripper_hold.yaml")
SIMC = os.environ.get("SIMC_BIN", os.path.join(ROOT, "bin", "simc"))


def cli_final_q(tmp_path, *sets):
    out = str(tmp_path / "cli.h5")
    args = [SIMC, GRIPPER, "-o", out, "--quiet"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True)
    with h5py.File(out, "r") as f:
        return f["q"][-1], float(f["time"][-1])


def test_constant_control_equals_cli_command_bitwise(tmp_path):
    m = simc.load(GRIPPER, ["time.duration=0.2"])
    d = m.data()
    d.ctrl[:] = 3.0  # a view: the library reads it at the next step
    n = int(round(0.2 / m.timestep))
    m.step(d, n)
    q_cli, t_cli = cli_final_q(tmp_path, "time.duration=0.2", "actuators.left.command=3.0",
                               "actuators.right.command=3.0")
    assert d.time == t_cli
    assert np.array_equal(d.q, q_cli)


def test_nan_control_gives_back_the_command(tmp_path):
    m = simc.load(GRIPPER, ["time.duration=0.1"])
    d = m.data()
    assert np.isnan(d.ctrl).all()  # the scene's commands until set
    d.ctrl[:] = 5.0
    d.ctrl[:] = np.nan
    m.step(d, int(round(0.1 / m.timestep)))
    q_cli, _ = cli_final_q(tmp_path, "time.duration=0.1")
    assert np.array_equal(d.q, q_cli)


def test_reset_repeats_the_run_bitwise():
    m = simc.load(GRIPPER, ["time.duration=0.05"])
    d = m.data()
    m.step(d, 50)
    q1 = d.q.copy()
    d.reset()
    assert d.time == 0.0
    m.step(d, 50)
    assert np.array_equal(d.q, q1)


def test_threads_step_separate_data_as_serial_runs():
    m = simc.load(GRIPPER, ["time.duration=0.05"])
    serial = []
    for u in (1.0, 2.5):
        d = m.data()
        d.ctrl[:] = u
        m.step(d, 50)
        serial.append(d.q.copy())
    datas = [m.data(), m.data()]
    for d, u in zip(datas, (1.0, 2.5)):
        d.ctrl[:] = u
    ts = [threading.Thread(target=m.step, args=(d, 50)) for d in datas]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for d, q in zip(datas, serial):
        assert np.array_equal(d.q, q)


def test_contacts_hold_the_box():
    """statics: the contacts' vertical impulse on the held box is m g dt"""
    m = simc.load(GRIPPER, ["time.duration=0.2"])
    d = m.data()
    m.step(d, 200)
    box = m.names("body").index("box")
    c = d.contacts()
    assert len(c) > 0
    on = (c["body"][:, 0] == box) | (c["body"][:, 1] == box)
    sign = np.where(c["body"][:, 1] == box, 1.0, -1.0)
    jz = np.sum(sign[on] * np.einsum("ik,ik->i", c["impulse"][on], c["frame"][on][:, :, 2]))
    assert abs(jz - 0.2 * 9.81 * m.timestep) <= 1e-3 * 0.2 * 9.81 * m.timestep


def test_set_state_round_trip_of_a_free_body():
    """q and v in the file's coordinates (frame origin) survive a set"""
    m = simc.load(GRIPPER)
    d = m.data()
    m.step(d, 10)
    q, v = d.q.copy(), d.v.copy()
    d.set_state(q, v)
    assert np.allclose(d.q, q, rtol=0, atol=1e-15)
    assert np.allclose(d.v, v, rtol=0, atol=1e-15)


def test_errors_carry_their_location(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("simc: 1\nname: bad\ntime: {step: 1.0e-3, duration: 1}\nbodies:\n"
                   "  - name: b\n    joint: {type: free}\n    mass: -1\n")
    with pytest.raises(simc.Error) as e:
        simc.load(str(bad))
    assert (e.value.file, e.value.line, e.value.col) == (str(bad), 7, 11)
    assert "mass" in str(e.value) and str(e.value).startswith("%s:7:11:" % bad)
    with pytest.raises(simc.Error):
        simc.load(str(tmp_path / "missing.yaml"))


def test_names_and_sizes():
    m = simc.load(GRIPPER)
    assert m.names("actuator") == ["left", "right"]
    assert m.names("body")[0] == "world" and "box" in m.names("body")
    assert (m.nq, m.nv, m.nu) == (9, 8, 2)


def test_set_state_refuses_a_zero_quaternion_and_normalizes_others():
    m = simc.load(GRIPPER)
    d = m.data()
    q, v = d.q.copy(), d.v.copy()
    box = q.copy()
    box[5:9] = 0.0  # the box's free joint: x y z then w x y z
    with pytest.raises(simc.Error):
        d.set_state(box, v)
    assert np.array_equal(d.q, q)  # refused before anything changed
    box[5:9] = [1e-170, 0, 0, 0]
    d.set_state(box, v)
    assert np.array_equal(d.q[5:9], [1.0, 0, 0, 0])


def test_rollout_equals_serial_runs_bitwise():
    """N rollouts on 1 and 2 threads against the serial loop they stand for"""
    m = simc.load(GRIPPER)
    d = m.data()
    m.step(d, 30)  # start from a state in contact
    rng = np.random.default_rng(7)
    ctrl = rng.uniform(-2.0, 4.0, size=(3, 25, m.nu))
    q1 = simc.rollout(m, d, ctrl, threads=1)
    q2 = simc.rollout(m, d, ctrl, threads=2)
    assert q1.shape == (3, 26, m.nq)
    for i in range(3):
        e = d.copy()
        serial = [e.q.copy()]
        for t in range(25):
            e.ctrl[:] = ctrl[i, t]
            m.step(e)
            serial.append(e.q.copy())
        assert np.array_equal(q1[i], np.array(serial))
    assert np.array_equal(q1, q2)
    assert not np.array_equal(q1[0], q1[1])  # the controls matter
    with pytest.raises(ValueError):
        simc.rollout(m, d, np.zeros((2, 3, m.nu + 1)))


def test_copy_steps_as_the_original_bitwise():
    """a branch taken in contact (the box held by friction) and stepped
    beside the original: the same states at every step, bit for bit, and a
    state set from q and v alone (no contact memory) is not the same"""
    m = simc.load(GRIPPER)
    d = m.data()
    m.step(d, 120)
    d.ctrl[:] = 2.5
    d.qfrc_applied[0] = 0.01
    e = d.copy()
    assert np.array_equal(e.ctrl, d.ctrl) and np.array_equal(e.qfrc_applied, d.qfrc_applied)
    bare = m.data()
    bare.set_state(d.q, d.v)
    bare.ctrl[:] = d.ctrl
    bare.qfrc_applied[:] = d.qfrc_applied
    differs = False
    for _ in range(60):
        for x in (d, e, bare):
            m.step(x)
        assert np.array_equal(d.q, e.q) and np.array_equal(d.v, e.v)
        assert np.array_equal(d.contacts()["impulse"], e.contacts()["impulse"])
        assert d.time == e.time
        differs |= not np.array_equal(d.q, bare.q)
    assert differs
    e.qfrc_applied[0] = 5.0  # the copy's arrays are its own
    assert d.qfrc_applied[0] == 0.01


def test_applied_force_on_a_free_body_closed_form(tmp_path):
    """a force at the centre of mass of a free body without gravity:
    x(t) = x0 + F t^2 / (2 m), exact in the scheme (constant acceleration);
    its work equals the kinetic energy gained"""
    scene = tmp_path / "pushed.yaml"
    scene.write_text("simc: 1\nname: pushed\ngravity: [0, 0, 0]\n"
                     "time: {step: 1.0e-3, duration: 1.0}\nbodies:\n"
                     "  - name: b\n    joint: {type: free}\n    mass: 2.0\n"
                     "    com: [0.1, -0.2, 0.05]\n"
                     "    inertia: {ixx: 0.02, iyy: 0.03, izz: 0.04}\n")
    m = simc.load(str(scene))
    d = m.data()
    F = np.array([0.6, -1.0, 0.4])
    d.xfrc_applied[1, :3] = F
    m.step(d, 400)
    t = 0.4
    assert np.allclose(d.q[:3], F * t * t / 4.0, rtol=0, atol=1e-13)
    assert np.allclose(d.v[:3], F * t / 2.0, rtol=0, atol=1e-13)
    p, r = d.body_pose("b")
    assert np.allclose(p, d.q[:3], atol=0) and np.allclose(r, np.eye(3), atol=1e-15)
    ek, work = d.energy()[0], d.energy()[4]
    assert abs(work - ek) <= 1e-12 * ek
    d.reset()
    assert not d.xfrc_applied.any()  # reset clears the forces (and the view follows)
    d.xfrc_applied[1, :3] = F
    m.step(d, 400)
    assert np.allclose(d.q[:3], F * t * t / 4.0, rtol=0, atol=1e-13)


@pytest.mark.parametrize("sets", [(), ("contact.penetration_warning=1e-6", "output.every=7")])
def test_recorder_writes_the_command_lines_file(tmp_path, sets):
    """a run stepped from Python and recorded gives the command line's file
    of the same run, dataset for dataset to the bit (wall times aside), and
    the same figures, warnings and status in its root attributes (the second
    run with a penetration warning and a row every 7 steps)"""
    m = simc.load(GRIPPER, sets)
    d = m.data()
    n = 700
    with simc.Recorder(m, d, str(tmp_path / "lib.h5")) as rec:
        for _ in range(n):
            m.step(d)
            rec.step(d)
    cli = str(tmp_path / "cli.h5")
    args = [SIMC, GRIPPER, "-o", cli, "--quiet", "--set", "time.duration=%r" % (n * m.timestep)]
    for x in sets:
        args += ["--set", x]
    subprocess.run(args, check=True, capture_output=True)
    cmp = subprocess.run([os.path.join(os.path.dirname(SIMC), "h5compare"), str(tmp_path / "lib.h5"), cli,
                          "--rtol", "0", "--atol", "0"], capture_output=True, text=True)
    assert cmp.returncode == 0, cmp.stdout + cmp.stderr
    with h5py.File(str(tmp_path / "lib.h5"), "r") as a, h5py.File(cli, "r") as b:
        assert a["q"].shape == b["q"].shape and a["q"].shape[0] > 1
        for k in ("status", "max_penetration", "max_penetration_time", "max_penetration_bodies", "warnings"):
            assert a.attrs[k] == b.attrs[k], k
        assert a.attrs["status"] == "complete"
        assert ("penetration" in a.attrs["warnings"]) == bool(sets)


def test_recorder_says_how_a_run_ended(tmp_path):
    """an exception inside the block closes the file valid with a failed
    status and the rows so far"""
    m = simc.load(GRIPPER)
    d = m.data()
    path = str(tmp_path / "stopped.h5")
    with pytest.raises(RuntimeError):
        with simc.Recorder(m, d, path) as rec:
            for i in range(50):
                m.step(d)
                rec.step(d)
            raise RuntimeError("controller gave up")
    with h5py.File(path, "r") as f:
        assert f.attrs["status"] == "failed: controller gave up"
        assert f["q"].shape[0] >= 1 and np.all(np.isfinite(f["q"][:]))
    with pytest.raises(simc.Error) as e:
        simc.Recorder(m, d, str(tmp_path / "no" / "such" / "dir.h5"))
    assert "dir.h5" in str(e.value)


def test_load_state_from_a_recorded_row(tmp_path):
    """a row of a recorded run as a data's state (the command line's --from):
    the row's q and v exactly; stepping on from it equals the command line
    started with --from the same row; another model's file is refused"""
    m = simc.load(GRIPPER)
    d = m.data()
    path = str(tmp_path / "rec.h5")
    with simc.Recorder(m, d, path) as rec:
        for _ in range(300):
            m.step(d)
            rec.step(d)
    e = m.data()
    desc = e.load_state(path + ":120")
    assert desc.startswith(path + " row 120 (t = 0.12")
    with h5py.File(path, "r") as f:
        assert np.array_equal(e.q, f["q"][120]) and np.array_equal(e.v, f["v"][120])
    m.step(e, 50)
    cli = str(tmp_path / "cli.h5")
    subprocess.run([SIMC, GRIPPER, "-o", cli, "--quiet", "--from", path + ":120",
                    "--set", "time.duration=0.05"], check=True)
    with h5py.File(cli, "r") as f:
        assert np.array_equal(e.q, f["q"][-1])
    other = simc.load(os.path.join(ROOT, "python", "examples", "pendulum.yaml"))
    with pytest.raises(simc.Error) as err:
        other.data().load_state(path)
    assert err.value.file == path and "are not this scene's" in str(err.value)
    with pytest.raises(simc.Error):
        e.load_state(str(tmp_path / "missing.h5"))


RAMP = """simc: 1
name: ramp
gravity: [0, 0, -9.81]
time: {step: 1.0e-3, duration: 1.0}
bodies:
  - name: arm
    joint: {type: revolute, axis: [0, 1, 0]}
    mass: 1.0
    com: [0, 0, -0.5]
    inertia: {ixx: 1.0e-3, iyy: 1.0e-3, izz: 1.0e-3}
actuators:
  - {name: motor, joint: arm, type: motor, command: torque}
commands:
  - {name: torque, time: [0, 1], value: [0, 4]}
"""


def test_set_time_moves_where_commands_are_read(tmp_path):
    """a state set at t = 0.3 s steps as the run that reached it (its motor's
    ramp read at the same times), bit for bit; time snaps to whole steps"""
    scene = tmp_path / "ramp.yaml"
    scene.write_text(RAMP)
    m = simc.load(str(scene))
    d = m.data()
    m.step(d, 300)
    e = m.data()
    e.set_state(d.q, d.v)
    assert e.time == 0.0
    e.time = 0.3000000004
    assert e.time == 300 * m.timestep
    late = m.data()
    late.set_state(d.q, d.v)  # left at t = 0: the ramp read from its start
    for x in (d, e, late):
        m.step(x, 200)
    assert np.array_equal(d.q, e.q) and np.array_equal(d.v, e.v) and d.time == e.time
    assert not np.array_equal(d.q, late.q)
    with pytest.raises(simc.Error):
        e.time = -1.0


def test_warnings_are_counted():
    """a contact buffer of 4 for the gripper's 8 contacts: the initial state's
    detection and every step warn, and nothing else does"""
    m = simc.load(GRIPPER, ["contact.max_contacts=4"])
    d = m.data()
    m.step(d, 40)
    w = d.warnings()
    assert w["max_contacts"] == 41 and w["free_newton"] == w["contact"] == w["fast_body"] == 0
    assert simc.load(GRIPPER).data().warnings()["max_contacts"] == 0


def test_model_texts_and_error_form(tmp_path):
    """the loader's notes and digest reach Python; an error without a column
    reads file:line: message, as the command line prints it"""
    m = simc.load(GRIPPER)
    assert len(m.text("digest")) == 64 and m.text("ignored") == ""
    out = subprocess.run([SIMC, GRIPPER, "--digest"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == m.text("digest")
    bad = tmp_path / "inertia.urdf"
    bad.write_text('<robot name="r">\n  <link name="a">\n    <inertial>\n      <mass value="1"/>\n'
                   '      <inertia ixx="1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/>\n'
                   '    </inertial>\n  </link>\n</robot>\n')
    with pytest.raises(simc.Error) as e:
        simc.load(str(bad))
    cli = subprocess.run([SIMC, str(bad), "--check"], capture_output=True, text=True)
    assert e.value.line > 0 and str(e.value) in cli.stderr


def test_state_views_are_the_state():
    """d.q and d.v are views: a write in place is the state from the next
    step, the same run bit for bit as set_state's; a bad write is refused
    by name at that step and can be corrected"""
    m = simc.load(GRIPPER)
    d = m.data()
    m.step(d, 20)
    e = d.copy()
    q = d.q.copy()
    q[2] += 1e-3  # the box's x, file coordinates
    v = d.v.copy()
    v[4] = 0.05
    d.q[2] += 1e-3
    d.v[4] = 0.05
    assert np.array_equal(d.q, q)  # written, not yet read
    e.set_state(q, v)
    m.step(d, 30)
    m.step(e, 30)
    assert np.array_equal(d.q, e.q) and np.array_equal(d.v, e.v)
    assert not np.array_equal(d.q, m.data().q)
    # the views see every step without being fetched again
    view = d.q
    m.step(d)
    assert np.array_equal(view, d.q) and not np.array_equal(view, e.q)
    # a zero quaternion written in place: the step says which coordinate
    d.q[5:9] = 0.0
    t = d.time
    with pytest.raises(simc.Error) as err:
        m.step(d)
    assert "zero quaternion at q[5] (box.qw)" in str(err.value) and d.time == t
    d.q[5:9] = [2.0, 0, 0, 0]  # corrected: renormalized when read
    m.step(d)
    assert d.time > t and abs(np.linalg.norm(d.q[5:9]) - 1) < 1e-15
    d.v[0] = np.nan
    with pytest.raises(simc.Error, match=r"v\[0\].*not finite"):
        m.step(d)


def test_writing_velocities_alone_keeps_positions(tmp_path):
    """a write of v alone leaves the positions the step holds as they were:
    on a tumbling free body whose centre is off its frame's origin, the
    round trip of q through the file's coordinates (which a write of q
    takes) changes q in the last bit in 2 of these 50 states"""
    scene = tmp_path / "spun.yaml"
    scene.write_text("simc: 1\nname: spun\ngravity: [0, 0, 0]\n"
                     "time: {step: 1.0e-3, duration: 1.0}\nbodies:\n"
                     "  - name: b\n    joint: {type: free}\n    mass: 2.0\n"
                     "    com: [0.1, -0.2, 0.05]\n"
                     "    inertia: {ixx: 0.02, iyy: 0.03, izz: 0.04}\n"
                     "    initial: {v: [0.3, -0.1, 0.2, 1.1, -0.7, 0.9]}\n")
    m = simc.load(str(scene))
    d = m.data()
    for _ in range(50):
        m.step(d, 7)
        e = d.copy()
        q = e.q.copy()
        e.v[:] = 0.0
        e.forward()
        assert np.array_equal(e.q, q) and not e.v.any()


def test_read_only_fields_and_lifetimes():
    """the derived arrays are read-only views of the current state; every
    view keeps its data alive and stays valid across reset and copy"""
    m = simc.load(GRIPPER)
    d = m.data()
    m.step(d, 5)
    for b in range(m.nbody):
        p, r = d.body_pose(b)
        assert np.array_equal(d.xpos[b], p) and np.array_equal(d.xmat[b].reshape(3, 3), r)
    with pytest.raises(ValueError):
        d.xpos[1, 0] = 1.0
    with pytest.raises(AttributeError):
        d.actuator_force = np.zeros(m.nu)
    assert d.actuator_force.shape == (m.nu,) and d.xfrc_applied.shape == (m.nbody, 6)
    assert set(simc.FIELDS) >= {"q", "v", "ctrl", "qfrc_applied", "xfrc_applied", "xpos"}
    ctrl, xpos = d.ctrl, d.xpos
    d.reset()
    ctrl[:] = 2.0  # the same memory after reset
    assert np.array_equal(d.ctrl, [2.0] * m.nu)
    assert np.array_equal(xpos, d.xpos)
    q0 = m.data().q.copy()
    orphan = m.data().q  # no name holds its data object: the view does
    gc.collect()
    assert np.array_equal(orphan, q0)
    d.q = orphan  # assignment writes in place
    assert np.array_equal(d.q, orphan)


def test_contacts_in_one_call_equal_each_contact():
    """d.contacts() (one simc_contacts call into the array) holds what
    simc_get_contact gives contact by contact, field for field"""
    m = simc.load(os.path.join(ROOT, "test", "clutter64.yaml"))
    d = m.data()
    m.step(d, 150)
    c = d.contacts()
    assert len(c) > 20
    one = simc._Contact()
    for i in range(len(c)):
        assert simc._lib.simc_get_contact(d._h, i, ctypes.byref(one)) == 0
        assert tuple(c["body"][i]) == tuple(one.body)
        assert np.array_equal(c["point"][i], one.point) and np.array_equal(c["normal"][i], one.normal)
        assert np.array_equal(c["frame"][i].ravel(), one.frame) and c["gap"][i] == one.gap
        assert np.array_equal(c["impulse"][i], one.impulse)
