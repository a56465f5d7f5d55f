# orbis_plugin_host(target): makes an executable able to load module plugins (orbis/gen/plugin.hpp).
#
# A plugin links orbis::plugin, which carries no library, and leaves every Orbis symbol undefined:
# with its own copy of the static libraries it would have its own globals (version stamps, the
# chunk pool), unsafe to mix with the host's. So the host must provide all of orbis_core, orbis_gen
# and orbis_io, including the parts it does not use itself, and export them to the libraries it
# dlopens: every object of the three archives is linked in (--whole-archive), and ENABLE_EXPORTS
# adds them to the dynamic symbol table (-rdynamic).
#
# The archives are named in the link options, which come before the objects and libraries on the
# link line; the normal link of the same libraries that follows then finds nothing left to add,
# and brings their own dependencies (CGAL, zstd, PNG, Threads). $<LINK_LIBRARY:WHOLE_ARCHIVE>
# would need CMake 3.24 and refuses a library linked both with and without a feature, which
# orbis_gen's dependency on orbis_core makes unavoidable.
function(orbis_plugin_host target)
    set_target_properties(${target} PROPERTIES ENABLE_EXPORTS ON)
    target_link_libraries(${target} PRIVATE orbis_core orbis_gen orbis_io ${CMAKE_DL_LIBS})
    target_link_options(${target} PRIVATE "LINKER:--whole-archive" $<TARGET_FILE:orbis_core>
                        $<TARGET_FILE:orbis_gen> $<TARGET_FILE:orbis_io>
                        "LINKER:--no-whole-archive")
endfunction()
