# PLY files exchanged with programs we did not write (label io). Each test lets one program
# write a PLY and print a summary of it (counts, position and triangle checksums, a vertex
# property), lets the other program read the file and print the same summary, and compares
# (interop/compare.cmake). Orbis's side is interop/orbis_ply_tool.cpp.
#
# - OpenMesh (Debian libopenmesh-dev): interop/openmesh_ply.cpp, both directions, ASCII and
#   binary, with a float vertex property through OpenMesh's custom-property support. Registered
#   only when OpenMesh is found.
# - Open3D (Debian python3-open3d, for /usr/bin/python3 only): interop/open3d_ply.py, both
#   directions; the property goes through open3d.t.io's point-cloud reader and writer, since
#   Open3D's triangle-mesh readers drop custom attributes. Registered when /usr/bin/python3
#   exists; fails with a clear message when Open3D cannot be imported there.
#
# tests/data/ply keeps one small file written by each program, read by ply_test.cpp, so the
# reader meets foreign files even where these programs are missing.

add_executable(orbis_ply_tool ${CMAKE_CURRENT_SOURCE_DIR}/interop/orbis_ply_tool.cpp)
target_link_libraries(orbis_ply_tool PRIVATE orbis::io orbis::gen)
orbis_configure_target(orbis_ply_tool)

# Built with the test suite, so that `ninja orbis_io_tests` and then `ctest -L io` suffice.
add_dependencies(orbis_io_tests orbis_ply_tool)

set(ORBIS_INTEROP_DIR ${CMAKE_CURRENT_BINARY_DIR}/interop)
set(ORBIS_INTEROP_COMPARE ${CMAKE_CURRENT_SOURCE_DIR}/interop/compare.cmake)

# One test: `writer` writes with `write_command` in `format`, `reader` reads (asking for
# `property` when not empty). Commands are '|'-separated words (see compare.cmake).
function(orbis_ply_interop_test name writer write_command reader format property)
    add_test(NAME ${name}
             COMMAND ${CMAKE_COMMAND} "-DWRITER=${writer}" "-DWRITE=${write_command}"
                     "-DREADER=${reader}" "-DFILE=${ORBIS_INTEROP_DIR}/${name}.ply"
                     "-DFORMAT=${format}" "-DPROPERTY=${property}" -P ${ORBIS_INTEROP_COMPARE})
    set_tests_properties(${name} PROPERTIES LABELS "io;interop" TIMEOUT 120)
endfunction()

set(orbis_tool $<TARGET_FILE:orbis_ply_tool>)

# ---- OpenMesh ----
find_package(OpenMesh CONFIG QUIET)
if(TARGET OpenMeshCore)
    add_executable(orbis_openmesh_ply ${CMAKE_CURRENT_SOURCE_DIR}/interop/openmesh_ply.cpp)
    # OpenMesh's headers are not ours: no -Werror on them, and only the standard they need.
    target_link_libraries(orbis_openmesh_ply PRIVATE OpenMeshCore)
    target_compile_features(orbis_openmesh_ply PRIVATE cxx_std_17)
    # Debian's config lists only a "None" configuration; map every build type to it.
    set_target_properties(OpenMeshCore PROPERTIES MAP_IMPORTED_CONFIG_RELEASE "NONE;"
                          MAP_IMPORTED_CONFIG_DEBUG "NONE;" MAP_IMPORTED_CONFIG_RELWITHDEBINFO "NONE;"
                          MAP_IMPORTED_CONFIG_MINSIZEREL "NONE;")
    add_dependencies(orbis_io_tests orbis_openmesh_ply)
    set(openmesh_tool $<TARGET_FILE:orbis_openmesh_ply>)
    foreach(format ascii binary)
        orbis_ply_interop_test(interop.ply.orbis_to_openmesh_${format} ${orbis_tool} write
                               ${openmesh_tool} ${format} height)
        orbis_ply_interop_test(interop.ply.openmesh_to_orbis_${format} ${openmesh_tool} write
                               ${orbis_tool} ${format} temperature)
    endforeach()
else()
    message(STATUS "OpenMesh not found: the OpenMesh PLY interop tests are not registered")
endif()

# ---- Open3D ----
find_program(ORBIS_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(ORBIS_SYSTEM_PYTHON)
    set(open3d_tool "${ORBIS_SYSTEM_PYTHON}|${CMAKE_CURRENT_SOURCE_DIR}/interop/open3d_ply.py")
    foreach(format ascii binary)
        orbis_ply_interop_test(interop.ply.orbis_to_open3d_${format} ${orbis_tool} write
                               ${open3d_tool} ${format} height)
        orbis_ply_interop_test(interop.ply.open3d_to_orbis_${format} ${open3d_tool} write
                               ${orbis_tool} ${format} "")
        orbis_ply_interop_test(interop.ply.open3d_cloud_to_orbis_${format} ${open3d_tool}
                               write-cloud ${orbis_tool} ${format} temperature)
    endforeach()
else()
    message(STATUS "/usr/bin/python3 not found: the Open3D PLY interop tests are not registered")
endif()
