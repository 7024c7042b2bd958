// Checkpoint size and times from parameter count, training setup and storage bandwidth.
#include "steptime/checkpoint_cost.hpp"

#include <gtest/gtest.h>

#include "base/errors.hpp"

namespace spotsim {
namespace {

TEST(CheckpointCost, LayoutsFollowZeroAccounting) {
  const auto& mixed = training_state_layout("adam-mixed", "t");
  EXPECT_DOUBLE_EQ(mixed.training_bytes(), 16.0);    // ZeRO §3.1: 2 + 2 + 12
  EXPECT_DOUBLE_EQ(mixed.checkpoint_bytes(), 14.0);  // gradients are not saved
  EXPECT_DOUBLE_EQ(training_state_layout("adam-fp32", "t").checkpoint_bytes(), 12.0);
  EXPECT_DOUBLE_EQ(training_state_layout("sgd-momentum-fp32", "t").checkpoint_bytes(), 8.0);
  EXPECT_THROW(training_state_layout("lion", "--training-setup"), InputError);
}

TEST(CheckpointCost, SevenBillionParametersOnOneWriter) {
  CheckpointSetup s;
  s.parameters = 7e9;
  s.bytes_per_parameter = 14.0;
  s.write_gbps = 2.0;
  s.read_gbps = 4.0;
  const CheckpointCost c = checkpoint_cost(s, "t");
  EXPECT_DOUBLE_EQ(c.size_bytes, 98e9);
  EXPECT_DOUBLE_EQ(c.write_s, 49.0);
  EXPECT_DOUBLE_EQ(c.restore_s, 24.5);
  EXPECT_FALSE(c.fits_notice(30.0));
  EXPECT_TRUE(c.fits_notice(120.0));
  s.writers = 8;  // sharded: 8 ranks write 1/8 each
  EXPECT_DOUBLE_EQ(checkpoint_cost(s, "t").write_s, 49.0 / 8);
}

TEST(CheckpointCost, RejectsNonsense) {
  CheckpointSetup s;
  s.parameters = 0;
  s.bytes_per_parameter = 14;
  EXPECT_THROW(checkpoint_cost(s, "t"), InputError);
  s.parameters = 1e9;
  s.write_gbps = 0;
  EXPECT_THROW(checkpoint_cost(s, "t"), InputError);
}

}  // namespace
}  // namespace spotsim
