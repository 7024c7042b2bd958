#pragma once
// Per-run rows as text: the chunk files a sweep persists its finished work in (every field of RunResult, exact:
// numbers in shortest round-trip form, so a result read back is bit-identical to the one computed) and the tidy
// per-run CSV of the final output (docs/outputs.md#sweep-outputs).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/sweep/sweep_plan.hpp"
#include "model/run_result.hpp"

namespace spotsim {

std::string chunk_file_text(const SweepPlan& plan, std::uint64_t chunk, const std::vector<RunResult>& runs);
// Reads a chunk file back; InputError naming the file when it is not the chunk `chunk` of this plan or is damaged.
std::vector<RunResult> parse_chunk_file(const SweepPlan& plan, std::uint64_t chunk, const std::string& text,
                                        const std::string& file);
// Why a chunk file is not a complete chunk `chunk`, or nothing when it is: checks what the file says of itself
// (its header's chunk number and run range, one well-formed row per run, the end marker), not which spec it
// belongs to. For --resume, which recomputes such a chunk instead of failing on it.
std::optional<std::string> chunk_file_problem(std::uint64_t chunk, const std::string& text);

std::string runs_csv_header();
// Appends the rows of runs [first, first + runs.size()) to `out`.
void append_runs_csv(const SweepPlan& plan, std::uint64_t first, const std::vector<RunResult>& runs, std::string& out);

// RFC 4180 quoting: policy specs and job labels contain commas.
std::string csv_field(const std::string& text);

}  // namespace spotsim
