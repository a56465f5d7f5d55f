// SPDX-License-Identifier: MIT
// The editor's tools in menu order: one line each. A tool's file (tools/NAME_tool.cpp) defines
// std::unique_ptr<Tool> make_NAME_tool(Tool_context); this list is the only other place that
// names it.
ORBIS_TOOL(select)
ORBIS_TOOL(flip)
ORBIS_TOOL(split)
ORBIS_TOOL(collapse)
ORBIS_TOOL(move)
ORBIS_TOOL(brush)
