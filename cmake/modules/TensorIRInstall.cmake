# What `cmake --install` lays out, for other MLIR-based projects
# (find_package(TensorIR)) and for the Debian package (cpack):
#
#   include/TensorIR/...           headers, the generated .h.inc / .cpp.inc and
#                                  the .td files other projects' ODS includes
#   include/TensorIR-c/            the C API's header
#   lib/libTIR*.a, lib/libTIR*.so  the libraries (imported as TensorIR::<name>)
#   lib/TIRPlugin.so               the plugin for the stock mlir-opt
#   lib/cmake/TensorIR/            TensorIRConfig.cmake, its version file and
#                                  the exported targets
#   bin/tir-opt, tir-translate, tir-run, tir-exec
#   lib/python3/dist-packages/     the Python package (tensorir, tir_runtime
#                                  and the extension)
#
# Everything is found relative to the prefix (relocatable): libraries and
# tools by RUNPATH ($ORIGIN), the package config by its own location.

include(CMakePackageConfigHelpers)

set(TIR_INSTALL_LIBDIR lib)
set(TIR_INSTALL_CMAKEDIR ${TIR_INSTALL_LIBDIR}/cmake/TensorIR)
set(TIR_PYTHON_INSTALL_DIR ${TIR_INSTALL_LIBDIR}/python3/dist-packages
    CACHE STRING "Where the Python package goes, relative to the prefix")

# Installed binaries find tir's shared libraries beside them (lib/) and
# LLVM's where this build found them (Debian's /usr/lib/llvm-22/lib).
function(tir_install_rpath target from_dir)
  file(RELATIVE_PATH rel "/${from_dir}" "/${TIR_INSTALL_LIBDIR}")
  if(rel STREQUAL "")
    set(rel ".")
  endif()
  set_target_properties(${target} PROPERTIES
    INSTALL_RPATH "$ORIGIN/${rel};${LLVM_LIBRARY_DIR}")
endfunction()

get_property(tir_libraries GLOBAL PROPERTY TIR_INSTALLED_LIBRARIES)
foreach(target TIRRuntime TIRCAPI)
  target_include_directories(${target} INTERFACE
    $<BUILD_INTERFACE:${TIR_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  tir_install_rpath(${target} ${TIR_INSTALL_LIBDIR})
endforeach()
install(TARGETS ${tir_libraries} TIRRuntime TIRCAPI
  EXPORT TensorIRTargets
  ARCHIVE DESTINATION ${TIR_INSTALL_LIBDIR} COMPONENT TensorIR
  LIBRARY DESTINATION ${TIR_INSTALL_LIBDIR} COMPONENT TensorIR)
install(EXPORT TensorIRTargets
  NAMESPACE TensorIR::
  DESTINATION ${TIR_INSTALL_CMAKEDIR}
  COMPONENT TensorIR)

# Headers: the project's (the C++ ones with the .td files, and the C
# API's), and the generated ones.
install(DIRECTORY ${TIR_SOURCE_DIR}/include/TensorIR-c
  DESTINATION include COMPONENT TensorIR)
install(DIRECTORY ${TIR_SOURCE_DIR}/include/TensorIR
  DESTINATION include COMPONENT TensorIR
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${TIR_BINARY_DIR}/include/TensorIR
  DESTINATION include COMPONENT TensorIR
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)

# Tools and the mlir-opt plugin.
set(tir_tools tir-opt tir-translate tir-run tir-exec)
foreach(tool ${tir_tools})
  tir_install_rpath(${tool} bin)
endforeach()
install(TARGETS ${tir_tools} RUNTIME DESTINATION bin COMPONENT TensorIR)
tir_install_rpath(TIRPlugin ${TIR_INSTALL_LIBDIR})
install(TARGETS TIRPlugin LIBRARY DESTINATION ${TIR_INSTALL_LIBDIR}
  COMPONENT TensorIR)

# The Python package, where Python finds it (PYTHONPATH, or on Debian the
# system's dist-packages).
if(TARGET _tensorir)
  tir_install_rpath(_tensorir ${TIR_PYTHON_INSTALL_DIR})
  install(TARGETS _tensorir LIBRARY DESTINATION ${TIR_PYTHON_INSTALL_DIR}
    COMPONENT TensorIR)
  install(DIRECTORY ${TIR_SOURCE_DIR}/python/tensorir
                    ${TIR_SOURCE_DIR}/python/tir_runtime
    DESTINATION ${TIR_PYTHON_INSTALL_DIR} COMPONENT TensorIR
    PATTERN "__pycache__" EXCLUDE)
endif()

# The package configuration: relocatable (paths relative to its own
# location), versioned.
configure_package_config_file(
  ${TIR_SOURCE_DIR}/cmake/TensorIRConfig.cmake.in
  ${TIR_BINARY_DIR}/cmake/TensorIRConfig.cmake
  INSTALL_DESTINATION ${TIR_INSTALL_CMAKEDIR}
  PATH_VARS TIR_INSTALL_LIBDIR TIR_PYTHON_INSTALL_DIR)
write_basic_package_version_file(
  ${TIR_BINARY_DIR}/cmake/TensorIRConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${TIR_BINARY_DIR}/cmake/TensorIRConfig.cmake
  ${TIR_BINARY_DIR}/cmake/TensorIRConfigVersion.cmake
  DESTINATION ${TIR_INSTALL_CMAKEDIR} COMPONENT TensorIR)

# The Debian package of the installed tree (cpack; scripts/package-check.sh
# builds it, installs it into an empty root with dpkg and builds the
# consumer against that): under /usr, the Python package where Debian's
# python3 looks (/usr/lib/python3/dist-packages). It needs what the
# compiler and its users need from Debian at run time: LLVM and MLIR 22
# (libraries, CMake packages and headers, for consumers), lld (exported
# libraries), libomp (parallel loops), python3 with numpy.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tensorir)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "tir")
set(CPACK_PACKAGE_CONTACT "tir developers <tir-dev@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "TVM's TensorIR as an MLIR dialect: scheduling, lowering to CPUs and NVIDIA GPUs, runtime")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The extension is built for this Python (cpython-3XY): the package needs
# that version.
get_property(tir_python GLOBAL PROPERTY TIR_PYTHON_VERSION)
if(tir_python MATCHES "^([0-9]+)\\.([0-9]+)$")
  math(EXPR tir_next_minor "${CMAKE_MATCH_2} + 1")
  set(tir_python_dep
      "python3 (>= ${tir_python}), python3 (<< ${CMAKE_MATCH_1}.${tir_next_minor})")
else()
  set(tir_python_dep "python3")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libmlir-22-dev, llvm-22-dev, libomp-22-dev, lld-22, ${tir_python_dep}, python3-numpy")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
set(CPACK_COMPONENTS_ALL TensorIR)
set(CPACK_DEB_COMPONENT_INSTALL OFF)
include(CPack)

# The wheel (`pip install .`, python/CMakeLists.txt) puts the runtime
# library into tir_runtime/ beside the extension, which finds it there and
# LLVM and MLIR where this build found them.
if(SKBUILD AND TARGET _tensorir)
  set_target_properties(_tensorir PROPERTIES
    INSTALL_RPATH "$ORIGIN/tir_runtime;${LLVM_LIBRARY_DIR}")
  set_target_properties(TIRRuntime PROPERTIES INSTALL_RPATH "$ORIGIN")
endif()
