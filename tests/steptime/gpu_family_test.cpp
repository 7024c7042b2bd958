// GPU names given by users: a family name means all its parts where a set makes sense (advise --gpu) and is
// refused, listing them, where one GPU is needed (steptime --target, --measured-gpu, trace --gpu).
#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "steptime/gpu_spec_table.hpp"

namespace spotsim {
namespace {

std::vector<std::string> names(const std::vector<const GpuSpec*>& specs) {
  std::vector<std::string> out;
  for (const GpuSpec* s : specs) out.push_back(s->name);
  return out;
}

TEST(GpuFamily, AFamilyNameMeansEveryPart) {
  EXPECT_EQ(names(gpus_of_family("A100")),
            (std::vector<std::string>{"A100-40GB", "A100-40GB-PCIE", "A100-80GB", "A100-80GB-PCIE"}));
  EXPECT_EQ(names(gpus_of_family("a100-80gb")), (std::vector<std::string>{"A100-80GB", "A100-80GB-PCIE"}));
  EXPECT_EQ(names(gpus_of_family("H100")), (std::vector<std::string>{"H100", "H100-PCIE"}));
  EXPECT_EQ(names(gpus_of_family("v100-16gb")), (std::vector<std::string>{"V100"}));  // an alias: its one GPU
  EXPECT_EQ(names(gpus_of_family("L4")), (std::vector<std::string>{"L4"}));
  EXPECT_TRUE(gpus_of_family("A10").empty());  // not a prefix of "A100": families end at a '-'
  EXPECT_TRUE(gpus_of_family("K80").empty());
}

TEST(GpuFamily, OneGpuIsTheExactNameOrRefusesAnAmbiguousFamily) {
  EXPECT_EQ(one_gpu_or_throw("A100-40GB", "--target").name, "A100-40GB");
  EXPECT_EQ(one_gpu_or_throw("h100", "--target").name, "H100");  // a canonical name, though H100-PCIE shares it
  EXPECT_EQ(one_gpu_or_throw("A100-PCIE-40GB", "--target").name, "A100-40GB-PCIE");
  EXPECT_EQ(find_one_gpu("K80", "--gpu"), nullptr);
  try {
    one_gpu_or_throw("A100", "--target");
    ADD_FAILURE() << "A100 accepted as one GPU";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "--target: 'A100' names several GPUs (A100-40GB, A100-40GB-PCIE, A100-80GB, A100-80GB-PCIE); "
                 "give one of them");
  }
  EXPECT_THROW(one_gpu_or_throw("K80", "--target"), InputError);
}

}  // namespace
}  // namespace spotsim
