#include "policies/plugin/plugin_loader.hpp"

#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <utility>

#include "base/errors.hpp"
#include "policies/plugin/plugin_policies.hpp"

namespace spotsim {

namespace {

struct PluginCatalog {
  std::mutex mutex;
  std::vector<LoadedPlugin> plugins;  // canonical paths and the policies each added, in load order
  PolicyRegistry policies;            // the plugins' policies only
};

PluginCatalog& catalog() {
  static PluginCatalog instance;
  return instance;
}

// What one spotsim_plugin_register() call adds, checked before any of it joins the catalogue.
struct Registration {
  std::string file;
  const PolicyRegistry* taken;  // built-ins and earlier plugins
  PolicyRegistry added;
  std::string refusal;  // the first policy refused, reported even if the plugin ignores the return code
};

template <typename Entries>
bool has_name(const Entries& entries, const std::string& name) {
  return std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.name == name; });
}

bool name_taken(const PolicyRegistry& registry, const std::string& name) {
  return has_name(registry.selection_policies(), name) || has_name(registry.checkpoint_policies(), name) ||
         has_name(registry.node_policies(), name);
}

void copy_message(const std::string& message, char* error, size_t size) {
  if (error == nullptr || size == 0) return;
  const std::size_t n = std::min(message.size(), size - 1);
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

int32_t refuse(Registration& r, const std::string& message, char* error, size_t size) {
  if (r.refusal.empty()) r.refusal = message;
  copy_message(message, error, size);
  return 1;
}

// Checks shared by both kinds of table; "" when the table is acceptable.
template <typename Table>
std::string table_problem(const Table* table, const Registration& r, const char* kind) {
  if (table == nullptr) return std::string("a null ") + kind + " policy table";
  if (table->abi_version != SPOTSIM_PLUGIN_ABI_VERSION) {
    return std::string("policy '") + (table->name ? table->name : "?") + "' was built against spotsim plugin ABI " +
           std::to_string(table->abi_version) + ", but this spotsim speaks ABI " +
           std::to_string(SPOTSIM_PLUGIN_ABI_VERSION) +
           "; rebuild the plugin against this spotsim's "
           "policies/plugin/spotsim_plugin.h";
  }
  if (table->struct_size != sizeof(Table)) {
    return std::string("policy '") + (table->name ? table->name : "?") + "': struct_size " +
           std::to_string(table->struct_size) + ", expected " + std::to_string(sizeof(Table)) +
           " (set it to sizeof the table)";
  }
  if (table->name == nullptr || table->name[0] == '\0') return std::string("a ") + kind + " policy without a name";
  const std::string name = table->name;
  if (name.find_first_of(":,= \t\n") != std::string::npos) {
    return "policy name '" + name + "' contains ':', ',', '=' or a space; expected a plain name";
  }
  if (name_taken(*r.taken, name) || name_taken(r.added, name)) return "policy name '" + name + "' is already taken";
  if (table->create == nullptr) return "policy '" + name + "' has no create()";
  return "";
}

// The host's add_*_policy: checks the table, then keeps its entry; `callback` names the call the kind requires.
template <typename Table, typename MakeEntry>
int32_t add_policy(void* context, const Table* table, char* error, size_t size, const char* kind, bool has_callback,
                   const char* callback, MakeEntry make_entry) {
  auto& r = *static_cast<Registration*>(context);
  try {
    std::string problem = table_problem(table, r, kind);
    if (problem.empty() && !has_callback) problem = std::string("policy '") + table->name + "' has no " + callback;
    if (!problem.empty()) return refuse(r, problem, error, size);
    r.added.add(make_entry(*table, r.file));
    return 0;
  } catch (const std::exception& e) {
    return refuse(r, e.what(), error, size);
  }
}

int32_t add_selection(void* context, const spotsim_selection_policy* table, char* error, size_t size) {
  return add_policy(context, table, error, size, "selection", table != nullptr && table->decide != nullptr, "decide()",
                    plugin_selection_entry);
}

int32_t add_checkpoint(void* context, const spotsim_checkpoint_policy* table, char* error, size_t size) {
  return add_policy(context, table, error, size, "checkpoint", table != nullptr && table->next_interval != nullptr,
                    "next_interval()", plugin_checkpoint_entry);
}

// A file that the dynamic loader maps must hold every byte its ELF headers point at: a truncated library makes
// dlopen() touch pages past the end of the file, and the process dies of SIGBUS inside the loader. "" when the
// file is a complete 64-bit ELF shared object of this machine's byte order, else what is wrong.
std::string elf_problem(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return "cannot be read";
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);
  Elf64_Ehdr header{};
  if (size < sizeof header || !in.read(reinterpret_cast<char*>(&header), sizeof header)) {
    return "is not a shared library (too short for an ELF header)";
  }
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return "is not a shared library (no ELF magic)";
  if (header.e_ident[EI_CLASS] != ELFCLASS64) return "is not a 64-bit ELF library";
  if (header.e_type != ET_DYN) return "is an ELF file but not a shared library (build it with -shared -fPIC)";
  const auto extent = [size](std::uint64_t offset, std::uint64_t bytes) {
    return offset <= size && bytes <= size - offset;
  };
  if (header.e_phentsize != sizeof(Elf64_Phdr) ||
      !extent(header.e_phoff, std::uint64_t{header.e_phnum} * sizeof(Elf64_Phdr))) {
    return "is truncated or damaged (its program headers lie past the end of the file)";
  }
  if (header.e_shnum > 0 && !extent(header.e_shoff, std::uint64_t{header.e_shnum} * header.e_shentsize)) {
    return "is truncated (its section headers lie past the end of the file, " + std::to_string(size) + " bytes)";
  }
  in.seekg(static_cast<std::streamoff>(header.e_phoff));
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment{};
    if (!in.read(reinterpret_cast<char*>(&segment), sizeof segment)) return "is truncated (unreadable program header)";
    if (segment.p_type == PT_LOAD && !extent(segment.p_offset, segment.p_filesz)) {
      return "is truncated (a loadable segment ends at byte " + std::to_string(segment.p_offset + segment.p_filesz) +
             ", the file has " + std::to_string(size) + ")";
    }
  }
  return "";
}

}  // namespace

void load_policy_plugin(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw InputError("--plugin " + path +
                     ": no such file; expected a shared library (.so) built against "
                     "policies/plugin/spotsim_plugin.h");
  }
  const std::string file = std::filesystem::canonical(path).string();
  PluginCatalog& c = catalog();
  std::lock_guard lock(c.mutex);
  if (std::any_of(c.plugins.begin(), c.plugins.end(), [&](const LoadedPlugin& p) { return p.file == file; })) return;

  if (const std::string problem = elf_problem(file); !problem.empty()) {
    throw InputError("--plugin " + path + ": " + problem +
                     "; expected a shared library (.so) built against "
                     "policies/plugin/spotsim_plugin.h");
  }
  // RTLD_LOCAL: two plugins may define the same internal symbols. Never dlclose()d: the policies' code lives there.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    throw InputError("--plugin " + path + ": cannot load it: " + (why ? why : "unknown error"));
  }
  auto register_policies = reinterpret_cast<spotsim_plugin_register_fn>(dlsym(handle, "spotsim_plugin_register"));
  if (register_policies == nullptr) {
    dlclose(handle);
    throw InputError(
        "--plugin " + path +
        ": exports no spotsim_plugin_register(); expected "
        "`SPOTSIM_PLUGIN_EXPORT int32_t spotsim_plugin_register(const spotsim_host*)` (extern \"C\" in C++)");
  }

  PolicyRegistry taken = builtin_policy_registry();
  for (const auto& e : c.policies.selection_policies()) taken.add(e);
  for (const auto& e : c.policies.checkpoint_policies()) taken.add(e);
  Registration registration{path, &taken, {}, {}};
  const spotsim_host host{SPOTSIM_PLUGIN_ABI_VERSION, &registration, add_selection, add_checkpoint};
  const int32_t status = register_policies(&host);
  if (!registration.refusal.empty()) throw InputError("--plugin " + path + ": " + registration.refusal);
  if (status != 0) {
    throw InputError("--plugin " + path + ": spotsim_plugin_register() returned " + std::to_string(status) +
                     " (a policy was refused, or the plugin failed; see its messages)");
  }
  LoadedPlugin loaded{file, {}};
  for (const auto& e : registration.added.selection_policies()) c.policies.add(e), loaded.policies.push_back(e.name);
  for (const auto& e : registration.added.checkpoint_policies()) c.policies.add(e), loaded.policies.push_back(e.name);
  c.plugins.push_back(std::move(loaded));
}

std::vector<std::string> loaded_policy_plugins() {
  std::vector<std::string> files;
  for (const LoadedPlugin& p : loaded_plugins()) files.push_back(p.file);
  return files;
}

std::vector<LoadedPlugin> loaded_plugins() {
  PluginCatalog& c = catalog();
  std::lock_guard lock(c.mutex);
  return c.plugins;
}

void add_plugin_policies(PolicyRegistry& registry) {
  PluginCatalog& c = catalog();
  std::lock_guard lock(c.mutex);
  for (const auto& e : c.policies.selection_policies()) registry.add(e);
  for (const auto& e : c.policies.checkpoint_policies()) registry.add(e);
}

}  // namespace spotsim
