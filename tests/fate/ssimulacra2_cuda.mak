# ssimulacra2_cuda: the refcmp tests of ssimulacra2 (tests/fate/ssimulacra2.mak), run on the
# GPU with the CPU filter's reference files as expected output and the same tolerances: the
# two filters give identical scores. They need a CUDA device: like FFmpeg's other hardware
# tests they are in "make fate-hw", not in "make fate"; "make fate-ssimulacra2-cuda" runs them.

SSIMULACRA2_CUDA_DEPS = SSIMULACRA2_CUDA_FILTER HWUPLOAD_FILTER HWDOWNLOAD_FILTER FORMAT_FILTER \
                        TESTSRC2_FILTER SPLIT_FILTER AVGBLUR_FILTER METADATA_FILTER \
                        WRAPPED_AVFRAME_ENCODER NULL_MUXER PIPE_PROTOCOL

# refcmp_metadata_cuda ssimulacra2_cuda FORMAT UPLOAD-FORMAT TOLERANCE: UPLOAD-FORMAT is a
# lossless repacking of FORMAT into one that CUDA frames can have
FATE_SSIMULACRA2_CUDA-$(call ALLYES, $(SSIMULACRA2_CUDA_DEPS)) += fate-filter-refcmp-ssimulacra2-cuda-rgb24
fate-filter-refcmp-ssimulacra2-cuda-rgb24: CMD = refcmp_metadata_cuda ssimulacra2_cuda rgb24 rgb0 0.0001
fate-filter-refcmp-ssimulacra2-cuda-rgb24: REF = $(SRC_PATH)/tests/ref/fate/filter-refcmp-ssimulacra2-rgb24

FATE_SSIMULACRA2_CUDA-$(call ALLYES, $(SSIMULACRA2_CUDA_DEPS)) += fate-filter-refcmp-ssimulacra2-cuda-yuv420p
fate-filter-refcmp-ssimulacra2-cuda-yuv420p: CMD = refcmp_metadata_cuda ssimulacra2_cuda yuv420p yuv420p 0.0005
fate-filter-refcmp-ssimulacra2-cuda-yuv420p: REF = $(SRC_PATH)/tests/ref/fate/filter-refcmp-ssimulacra2-yuv420p

FATE_SSIMULACRA2_CUDA-$(call ALLYES, $(SSIMULACRA2_CUDA_DEPS)) += fate-filter-refcmp-ssimulacra2-cuda-yuv420p10
fate-filter-refcmp-ssimulacra2-cuda-yuv420p10: CMD = refcmp_metadata_cuda ssimulacra2_cuda yuv420p10 yuv420p10 0.0005
fate-filter-refcmp-ssimulacra2-cuda-yuv420p10: REF = $(SRC_PATH)/tests/ref/fate/filter-refcmp-ssimulacra2-yuv420p10

FATE_SSIMULACRA2_CUDA-$(call ALLYES, $(SSIMULACRA2_CUDA_DEPS)) += fate-filter-refcmp-ssimulacra2-cuda-yuv420p-bt709
fate-filter-refcmp-ssimulacra2-cuda-yuv420p-bt709: CMD = refcmp_metadata_cuda ssimulacra2_cuda yuv420p,setparams=colorspace=bt709 yuv420p 0.0005
fate-filter-refcmp-ssimulacra2-cuda-yuv420p-bt709: REF = $(SRC_PATH)/tests/ref/fate/filter-refcmp-ssimulacra2-yuv420p-bt709

FATE_SSIMULACRA2_CUDA-$(call ALLYES, $(SSIMULACRA2_CUDA_DEPS)) += fate-filter-refcmp-ssimulacra2-cuda-yuv420p-topleft
fate-filter-refcmp-ssimulacra2-cuda-yuv420p-topleft: CMD = refcmp_metadata_cuda ssimulacra2_cuda yuv420p,setparams=chroma_location=topleft yuv420p 0.0005
fate-filter-refcmp-ssimulacra2-cuda-yuv420p-topleft: REF = $(SRC_PATH)/tests/ref/fate/filter-refcmp-ssimulacra2-yuv420p-topleft

FATE_HW-yes += $(FATE_SSIMULACRA2_CUDA-yes)
fate-ssimulacra2-cuda: $(FATE_SSIMULACRA2_CUDA-yes)
