// Kernel classes from real kernel names seen in the shared traces and tables.
#include "steptime/kernel_classifier.hpp"

#include <gtest/gtest.h>

namespace spotsim {
namespace {

void expect_kind(const char* name, KernelClass c, KernelFamily f, Precision p = Precision::FP32) {
  const KernelKind k = classify_kernel(name);
  EXPECT_EQ(k.kernel_class, c) << name;
  EXPECT_EQ(k.family, f) << name;
  if (c == KernelClass::Matrix) {
    EXPECT_EQ(k.precision, p) << name;
  }
}

TEST(KernelClassifier, MatrixAndConvolutionKernels) {
  expect_kind("volta_sgemm_64x64_nt", KernelClass::Matrix, KernelFamily::Gemm);
  expect_kind("ampere_sgemm_128x128_tn", KernelClass::Matrix, KernelFamily::Gemm);
  expect_kind("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>(Params)", KernelClass::Matrix,
              KernelFamily::Gemm, Precision::TF32);
  expect_kind("cudnn_infer_volta_scudnn_128x64_relu_medium_nn_v1", KernelClass::Matrix, KernelFamily::Convolution);
  expect_kind("void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int)", KernelClass::Matrix,
              KernelFamily::Convolution);
  expect_kind("sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16",
              KernelClass::Matrix, KernelFamily::Convolution, Precision::TF32);
  expect_kind("volta_h884gemm_64x64_ldg8_nn", KernelClass::Matrix, KernelFamily::Gemm, Precision::FP16);
  expect_kind("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", KernelClass::Matrix, KernelFamily::Gemm,
              Precision::BF16);
  // rocBLAS/Tensile GEMMs on the MI250 trace.
  expect_kind("Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32", KernelClass::Matrix, KernelFamily::Gemm);
}

TEST(KernelClassifier, LaunchingOperatorRefinesGemmsIntoConvolutions) {
  const KernelKind sgemm = classify_kernel("volta_sgemm_64x64_nn");
  for (const char* op : {"aten::cudnn_convolution", "aten::convolution_backward",
                         "aten::cudnn_convolution_backward_input", "aten::cudnn_convolution_backward_weight"}) {
    EXPECT_TRUE(launching_op_refines(op)) << op;
    EXPECT_EQ(refine_by_launching_op(sgemm, op).family, KernelFamily::Convolution) << op;
    EXPECT_EQ(refine_by_launching_op(sgemm, op).precision, Precision::FP32) << op;
  }
  for (const char* op : {"aten::mm", "aten::addmm", "aten::bmm", "aten::conv2d"})
    EXPECT_FALSE(launching_op_refines(op)) << op;
  EXPECT_EQ(refine_by_launching_op(sgemm, "aten::addmm").family, KernelFamily::Gemm);
  // Only GEMM-named matrix kernels change: a BN or layout kernel launched by a convolution op keeps its class.
  const KernelKind transpose =
      classify_kernel("void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true>(int)");
  EXPECT_EQ(refine_by_launching_op(transpose, "aten::cudnn_convolution").kernel_class, KernelClass::MemoryBound);
}

TEST(KernelClassifier, MemoryBoundKernels) {
  expect_kind("void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>(float)", KernelClass::MemoryBound,
              KernelFamily::Normalization);
  expect_kind("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int)",
              KernelClass::MemoryBound, KernelFamily::Normalization);
  expect_kind("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float> >(int)",
              KernelClass::MemoryBound, KernelFamily::Elementwise);
  expect_kind("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false, false>(float*)",
              KernelClass::MemoryBound, KernelFamily::Reduction);
  expect_kind("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float> >()", KernelClass::MemoryBound,
              KernelFamily::Reduction);
  // Layout transforms around cuDNN convolutions move data; they are not convolutions.
  expect_kind("void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true>(cudnn::ops::nchw2nhwc_params_t)",
              KernelClass::MemoryBound, KernelFamily::Elementwise);
  // GEMV is bandwidth-bound even though its name says gemm.
  expect_kind("void gemv2T_kernel_val<int, int, float, float, float, 128, 16, 4, 4, false>()", KernelClass::MemoryBound,
              KernelFamily::Elementwise);
}

TEST(KernelClassifier, CommunicationAndOther) {
  expect_kind("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
              KernelClass::Communication, KernelFamily::Communication);
  expect_kind("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevComm*)", KernelClass::Communication,
              KernelFamily::Communication);
  expect_kind("mystery_kernel", KernelClass::Other, KernelFamily::Other);
  EXPECT_EQ(memcpy_kind().kernel_class, KernelClass::MemcpyMemset);
  EXPECT_EQ(memset_kind().family, KernelFamily::Memset);
}

}  // namespace
}  // namespace spotsim
