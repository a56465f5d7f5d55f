# Warnings and sanitizers for Orbis's own targets; never through CMAKE_CXX_FLAGS.
function(orbis_configure_target target)
    target_compile_features(${target} PUBLIC cxx_std_20)
    set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                           $<$<BOOL:${ORBIS_WARNINGS_AS_ERRORS}>:-Werror>)
    # GCC 12's SLP vectoriser can read a float it just stored as the double it was rounded from
    # (tests/core/float_store_test.cpp); that changes worlds, the pass gained 2-4 % at most.
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-fno-tree-slp-vectorize>)
    if(ORBIS_SANITIZE)
        target_compile_options(${target} PRIVATE -fsanitize=${ORBIS_SANITIZE} -fno-omit-frame-pointer
                               -fno-sanitize-recover=all)
        target_link_options(${target} PUBLIC -fsanitize=${ORBIS_SANITIZE})
    endif()
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/OrbisPluginHost.cmake)
