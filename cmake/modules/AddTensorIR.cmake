# Thin wrappers over MLIR's CMake helpers, so that every tir library links
# libMLIR.so (never the static component archives) and every generated
# document lands in one place.

# add_tir_library(name srcs... [NO_INSTALL] [DEPENDS targets...]
#                 [LINK_LIBS libs...])
# A library of the installed package (TensorIRInstall.cmake exports it as
# TensorIR::<name>) unless NO_INSTALL (test-only libraries).
function(add_tir_library name)
  cmake_parse_arguments(ARG "NO_INSTALL" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_mlir_library(${name}
    ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS} MLIR
  )
  # Consumers of the installed package find the headers under include/,
  # and what compiling against them takes: LLVM's and MLIR's headers and
  # definitions (linking the target alone is enough to compile).
  target_include_directories(${name} INTERFACE
    $<BUILD_INTERFACE:${TIR_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${TIR_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  set(llvm_includes ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  list(REMOVE_DUPLICATES llvm_includes)
  target_include_directories(${name} SYSTEM INTERFACE ${llvm_includes})
  target_compile_definitions(${name} INTERFACE ${LLVM_DEFINITIONS_LIST})
  if(NOT ARG_NO_INSTALL)
    set_property(GLOBAL APPEND PROPERTY TIR_INSTALLED_LIBRARIES ${name})
  endif()
endfunction()

# add_tir_doc(td_file output_name command) generates Markdown into
# ${CMAKE_BINARY_DIR}/docs/<output_name>.md and hooks it into `tir-doc`.
function(add_tir_doc td_file output_name command)
  set(LLVM_TARGET_DEFINITIONS ${td_file}.td)
  mlir_tablegen(${output_name}.md ${command} ${ARGN})
  set(GEN_DOC_FILE ${TIR_BINARY_DIR}/docs/${output_name}.md)
  add_custom_command(
    OUTPUT ${GEN_DOC_FILE}
    COMMAND ${CMAKE_COMMAND} -E copy
            ${CMAKE_CURRENT_BINARY_DIR}/${output_name}.md
            ${GEN_DOC_FILE}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${output_name}.md)
  add_custom_target(${output_name}DocGen DEPENDS ${GEN_DOC_FILE})
  add_dependencies(tir-doc ${output_name}DocGen)
endfunction()
