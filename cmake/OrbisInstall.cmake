# Installs orbis::core (and orbis::gen) as a CMake package: find_package(orbis CONFIG REQUIRED).
# Module plugins link orbis::plugin (headers only; see docs/writing-a-module.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ORBIS_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/orbis)

install(TARGETS ${ORBIS_INSTALL_TARGETS} EXPORT orbisTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Public headers only: detail/ folders and the headers only the libraries' .cpp files include stay
# out, and so does render/gl, whose library (it needs Qt) is not installed.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/orbis DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp"
        PATTERN "gl" EXCLUDE
        PATTERN "detail" EXCLUDE
        PATTERN "crc32c.hpp" EXCLUDE
        PATTERN "ply_soup.hpp" EXCLUDE
        PATTERN "splitmix64.hpp" EXCLUDE
        PATTERN "live_slots.hpp" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/src/orbis/core.hpp ${ORBIS_GENERATED_INCLUDE_DIR}/orbis/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/orbis)
install(EXPORT orbisTargets NAMESPACE orbis:: DESTINATION ${ORBIS_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/orbisConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/orbisConfig.cmake
                              INSTALL_DESTINATION ${ORBIS_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/orbisConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/orbisConfig.cmake ${PROJECT_BINARY_DIR}/orbisConfigVersion.cmake
        DESTINATION ${ORBIS_INSTALL_CMAKEDIR})
