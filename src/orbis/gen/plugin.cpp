// SPDX-License-Identifier: MIT
#include "orbis/gen/plugin.hpp"

#include "orbis/gen/plugin_api.hpp"
#include "orbis/version.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace orbis::gen {

namespace {

namespace fs = std::filesystem;

// The modules of one plugin and the library their code lives in. Modules are handed out as
// aliases of this object, so the library is closed only after the last of them is gone; the
// handle is declared first so that it is released after the modules' destructors ran.
struct Plugin_modules {
    std::shared_ptr<void> library;
    Module_registry modules;
};

// The loader's message without the path it starts with, since refusals start with it anyway.
std::string loader_error(const std::string& where) {
    const char* error = dlerror();
    std::string text = error ? error : "unknown error";
    if (text.starts_with(where + ": ")) text.erase(0, where.size() + 2);
    return text;
}

// The version ORBIS_MODULE_PLUGIN stored in `library`, read from the file itself: used only
// when the loader refused it, which a plugin built against another Orbis usually causes by
// needing a symbol that this Orbis does not have.
std::optional<std::string> version_in_file(const fs::path& library) {
    constexpr std::string_view prefix = ORBIS_PLUGIN_VERSION_TAG_PREFIX;
    constexpr std::uintmax_t largest = 256u << 20; // plugins are far smaller; don't read a disk
    std::error_code ec;
    const auto size = fs::file_size(library, ec);
    if (ec || size > largest) return std::nullopt;
    std::ifstream in(library, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = bytes.find(prefix);
    if (at == std::string::npos) return std::nullopt;
    std::string version;
    for (auto i = at + prefix.size(); i < bytes.size() && bytes[i] != '\0'; ++i) {
        if (bytes[i] < ' ' || bytes[i] > '~' || version.size() == 64) return std::nullopt;
        version += bytes[i];
    }
    return version;
}

template <class Function>
Function* entry_point(void* library, const char* name) {
    // POSIX guarantees that dlsym's object pointer converts to a function pointer.
    return reinterpret_cast<Function*>(dlsym(library, name));
}

} // namespace

std::optional<std::string> load_plugin(const fs::path& library, Module_registry& into) {
    const std::string where = library.string();
    const std::string ours(version);
    dlerror(); // forget an earlier failure, so that the message below is this one's
    // RTLD_LOCAL: plugins do not see each other's symbols, so two plugins may define the same
    // names. RTLD_NODELETE: dlclose after the last module does not unmap the code, because a
    // World may still hold objects the plugin made (a layer whose type only the plugin
    // instantiated, mesh callbacks, an exception in flight) whose code would then be gone.
    void* handle = dlopen(where.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!handle) {
        const std::string why = loader_error(where);
        if (const auto theirs = version_in_file(library); theirs && *theirs != ours)
            return where + ": built against Orbis " + *theirs + ", this is Orbis " + ours +
                   "; rebuild the plugin (loading it failed: " + why + ")";
        return where + ": cannot be loaded: " + why;
    }
    auto plugin = std::make_shared<Plugin_modules>();
    plugin->library = std::shared_ptr<void>(handle, [](void* h) { dlclose(h); });

    const auto plugin_version = entry_point<const char*()>(handle, "orbis_plugin_version");
    if (!plugin_version) return where + ": not an Orbis module plugin: no orbis_plugin_version";
    const char* theirs = plugin_version();
    if (!theirs || theirs != ours)
        return where + ": built against Orbis " + (theirs ? theirs : "(none)") +
               ", this is Orbis " + ours + "; rebuild the plugin";
    const auto register_modules =
        entry_point<void(Module_registry&)>(handle, "orbis_register_modules");
    if (!register_modules) return where + ": not an Orbis module plugin: no orbis_register_modules";

    // Into a registry of its own first, so that a registration that throws half-way adds
    // nothing; the message is copied out before the exception (whose code may be the
    // plugin's) is destroyed, and that happens before the library is released.
    try {
        register_modules(plugin->modules);
    } catch (const std::exception& e) {
        return where + ": registering its modules failed: " + e.what();
    } catch (...) {
        return where + ": registering its modules failed with an exception that is not a "
                       "std::exception";
    }
    Module_registry shared;
    for (const Module* m : plugin->modules.modules()) {
        if (into.find(m->name()))
            return where + ": module '" + std::string(m->name()) +
                   "' is already registered (by Orbis or a plugin loaded earlier)";
        shared.add(std::shared_ptr<const Module>(plugin, m));
    }
    into.add_all(shared);
    return std::nullopt;
}

std::vector<fs::path> plugin_folders() {
    std::vector<fs::path> folders;
    if (const char* path = std::getenv("ORBIS_MODULE_PATH")) {
        std::string_view rest = path;
        while (true) {
            const auto colon = rest.find(':');
            const std::string_view entry = rest.substr(0, colon);
            if (!entry.empty()) folders.emplace_back(entry);
            if (colon == std::string_view::npos) break;
            rest.remove_prefix(colon + 1);
        }
    }
    const char* data_home = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    if (data_home && *data_home)
        folders.push_back(fs::path(data_home) / "orbis" / "modules");
    else if (home && *home)
        folders.push_back(fs::path(home) / ".local" / "share" / "orbis" / "modules");
    return folders;
}

Plugin_report load_plugins(std::span<const fs::path> folders, Module_registry& into) {
    Plugin_report report;
    std::vector<fs::path> seen;
    for (const auto& folder : folders) {
        std::error_code ec;
        fs::path same = fs::weakly_canonical(folder, ec);
        if (ec) same = folder.lexically_normal();
        if (std::find(seen.begin(), seen.end(), same) != seen.end()) continue;
        seen.push_back(same);

        std::vector<fs::path> files;
        fs::directory_iterator it(folder, ec);
        for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
            std::error_code file_ec;
            if (it->path().extension() == ".so" && it->is_regular_file(file_ec))
                files.push_back(it->path());
        }
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            if (auto why = load_plugin(file, into))
                report.refused.push_back(std::move(*why));
            else
                report.loaded.push_back(file);
        }
    }
    return report;
}

Module_registry available_modules(std::span<const fs::path> extra_folders, Plugin_report* report) {
    Module_registry modules = builtin_modules();
    std::vector<fs::path> folders(extra_folders.begin(), extra_folders.end());
    for (auto& folder : plugin_folders())
        folders.push_back(std::move(folder));
    Plugin_report loaded = load_plugins(folders, modules);
    if (report) *report = std::move(loaded);
    return modules;
}

} // namespace orbis::gen
