#pragma once
// Writes a whole file or nothing: the content goes to a temporary file beside the target, which is renamed over
// it only once complete and on disk, so an interrupted run never leaves a half-written result or clobbers the old
// one. Only a new name or a regular file is replaced so: "-", /dev/stdout and other descriptors, character devices,
// FIFOs and sockets are written into, and a symbolic link, a block device or a directory is refused
// (base/file_checks.hpp, output_destination).
//
// The temporary file is created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) under an unpredictable name,
// ".NAME.tmp.XXXXXX" with six random letters or digits: another user of a shared directory cannot plant a symlink
// at the name and have the write go through it. Its mode is that of any new file (0666 less the umask).
#include <string>
#include <string_view>

namespace spotsim {

// InputError naming `path` and the system's reason (errno text) on any failure; the target is then untouched and
// no temporary file is left.
void write_file_atomically(const std::string& path, const std::string& content);

// Creates the temporary file for `target` beside it: ".NAME.tmp.XXXXXX", exclusively (an existing file or symlink at
// the name means another name, never an open through it), mode 0666 less the umask, opened with `access`
// (O_WRONLY or O_RDWR). Returns the descriptor and sets temp_path; InputError naming `target` and the system's reason
// on failure. Every output of spotsim that is written whole or streamed starts here.
int create_temp_file_beside(const std::string& target, std::string& temp_path, int access);

// The temporary files of this process that SIGINT, SIGTERM and SIGHUP remove before the process dies of the signal
// (create_temp_file_beside registers each; whoever renames or unlinks one forgets it). The handlers are installed
// once, only where the signal has its default action.
void register_temp_file(const std::string& path);
void forget_temp_file(const std::string& path);

// Whether `file_name` (no directory) is a temporary file of write_file_atomically, e.g. left by a killed run
// (".NAME.tmp." and letters or digits; older builds wrote ".NAME.tmp.PID").
bool is_atomic_write_leftover(std::string_view file_name);

}  // namespace spotsim
