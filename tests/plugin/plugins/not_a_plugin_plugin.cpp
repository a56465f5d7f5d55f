// SPDX-License-Identifier: MIT
// A shared library that is no Orbis plugin: it has no orbis_plugin_version.
extern "C" __attribute__((visibility("default"))) int not_a_plugin_answer() { return 42; }
