#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Open3D's side of the PLY interop tests (tests/io/interop.cmake): reads a PLY with Open3D's
# readers, or builds a mesh or point cloud in Open3D and writes it with Open3D's writers, and
# prints the summary tests/io/interop/orbis_ply_tool.cpp describes (same lines, same arithmetic).
#
# Usage: open3d_ply.py read FILE [PROPERTY]   mesh through open3d.io.read_triangle_mesh; PROPERTY
#                                             (a vertex attribute) through
#                                             open3d.t.io.read_point_cloud, which keeps custom
#                                             attributes (the triangle mesh readers do not)
#        open3d_ply.py write FILE ascii|binary     an icosphere, open3d.io.write_triangle_mesh
#        open3d_ply.py write-cloud FILE ascii|binary
#                                             points with attribute "temperature", through
#                                             open3d.t.io.write_point_cloud
#        open3d_ply.py icosahedron FILE       writes tests/data/ply/open3d_icosahedron.ply
#
# Run it with /usr/bin/python3, where Debian's python3-open3d is installed.
import sys

try:
    import numpy as np
    import open3d as o3d
except ImportError as error:
    sys.exit("open3d_ply.py: cannot import Open3D with %s (%s); install Debian's python3-open3d "
             "for /usr/bin/python3" % (sys.executable, error))

MASK = (1 << 64) - 1


def q(a):
    # llround: halves away from zero, like C's llround (Python's round() rounds half to even).
    x = float(a) * 1e4
    return int(np.floor(x + 0.5)) if x >= 0 else -int(np.floor(-x + 0.5))


def mix(a, b, c):
    if b < a and b < c:
        a, b, c = b, c, a
    elif c < a and c < b:
        a, b, c = c, a, b
    return ((a * 73856093) ^ (b * 19349663) ^ (c * 83492791)) & MASK


def summary(points, triangles, prop_name=None, values=None):
    lines = ["vertices %d" % len(points), "faces %d" % len(triangles)]
    positions = 0
    for i, p in enumerate(points):
        positions += (q(p[0]) + 3 * q(p[1]) + 7 * q(p[2])) * (i % 7 + 1)
    tri = 0
    for t in triangles:
        tri = (tri + mix(int(t[0]), int(t[1]), int(t[2]))) & MASK
    lines += ["positions %d" % positions, "triangles %d" % tri]
    if prop_name:
        if values is None:
            lines.append("property %s missing" % prop_name)
        else:
            s = sum(q(v) * (i % 7 + 1) for i, v in enumerate(values))
            lines.append("property %s %d" % (prop_name, s))
    print("\n".join(lines))


def icosphere():
    # Coordinates rounded to float32 first, so that every reader sees the same numbers.
    mesh = o3d.geometry.TriangleMesh.create_icosahedron(radius=1.0)
    mesh = mesh.subdivide_midpoint(number_of_iterations=1)
    v = np.asarray(mesh.vertices)
    v = v / np.linalg.norm(v, axis=1)[:, None]
    mesh.vertices = o3d.utility.Vector3dVector(v.astype(np.float32).astype(np.float64))
    return mesh


def main(args):
    if len(args) in (2, 3) and args[0] == "read":
        mesh = o3d.io.read_triangle_mesh(args[1])
        points = np.asarray(mesh.vertices)
        if len(points) == 0:
            sys.exit("open3d_ply.py: Open3D read no vertices from %s" % args[1])
        values = None
        prop = args[2] if len(args) == 3 else None
        if prop:
            cloud = o3d.t.io.read_point_cloud(args[1])
            if prop in cloud.point:
                values = cloud.point[prop].numpy().reshape(-1)
        summary(points, np.asarray(mesh.triangles), prop, values)
    elif len(args) == 3 and args[0] == "write" and args[2] in ("ascii", "binary"):
        mesh = icosphere()
        if not o3d.io.write_triangle_mesh(args[1], mesh, write_ascii=args[2] == "ascii"):
            sys.exit("open3d_ply.py: Open3D could not write %s" % args[1])
        summary(np.asarray(mesh.vertices), np.asarray(mesh.triangles))
    elif len(args) == 3 and args[0] == "write-cloud" and args[2] in ("ascii", "binary"):
        points = np.asarray(icosphere().vertices).astype(np.float32)
        temperature = (np.arange(len(points)) % 37 * 0.125 - 2.0).astype(np.float32)
        cloud = o3d.t.geometry.PointCloud()
        cloud.point["positions"] = o3d.core.Tensor(points)
        cloud.point["temperature"] = o3d.core.Tensor(temperature.reshape(-1, 1))
        if not o3d.t.io.write_point_cloud(args[1], cloud, write_ascii=args[2] == "ascii"):
            sys.exit("open3d_ply.py: Open3D could not write %s" % args[1])
        summary(points, [], "temperature", temperature)
    elif len(args) == 2 and args[0] == "icosahedron":
        mesh = o3d.geometry.TriangleMesh.create_icosahedron(radius=1.0)
        if not o3d.io.write_triangle_mesh(args[1], mesh, write_ascii=True):
            sys.exit("open3d_ply.py: Open3D could not write %s" % args[1])
    else:
        sys.exit("usage: open3d_ply.py read FILE [PROPERTY] | write FILE ascii|binary | "
                 "write-cloud FILE ascii|binary | icosahedron FILE")


if __name__ == "__main__":
    main(sys.argv[1:])
