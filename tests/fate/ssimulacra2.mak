# ssimulacra2: the SSIMULACRA 2.1 full-reference metric, tested through its frame metadata
# (lavfi.ssimulacra2.score) in the refcmp_metadata style of filter-video.mak.
#
# The reference values were not captured from the filter: tools/gen-fate-refs.sh (in the
# overlay project) dumps the exact frame pairs that refcmp_metadata feeds the filter and scores
# them with an independent SSIMULACRA 2.1 implementation.

FATE_SSIMULACRA2-$(call ALLYES, SSIMULACRA2_FILTER SCALE_FILTER) += fate-filter-refcmp-ssimulacra2-rgb24
fate-filter-refcmp-ssimulacra2-rgb24: CMD = refcmp_metadata ssimulacra2 rgb24 0.0001

FATE_SSIMULACRA2-$(CONFIG_SSIMULACRA2_FILTER) += fate-filter-refcmp-ssimulacra2-gbrp
fate-filter-refcmp-ssimulacra2-gbrp: CMD = refcmp_metadata ssimulacra2 gbrp 0.0001

FATE_SSIMULACRA2-$(call ALLYES, SSIMULACRA2_FILTER SCALE_FILTER) += fate-filter-refcmp-ssimulacra2-rgb48
fate-filter-refcmp-ssimulacra2-rgb48: CMD = refcmp_metadata ssimulacra2 rgb48 0.0001

FATE_SSIMULACRA2-$(CONFIG_SSIMULACRA2_FILTER) += fate-filter-refcmp-ssimulacra2-gray
fate-filter-refcmp-ssimulacra2-gray: CMD = refcmp_metadata ssimulacra2 gray 0.0001

FATE_SSIMULACRA2-$(CONFIG_SSIMULACRA2_FILTER) += fate-filter-refcmp-ssimulacra2-gray16
fate-filter-refcmp-ssimulacra2-gray16: CMD = refcmp_metadata ssimulacra2 gray16 0.0001

# Y'CbCr: the oracle reads RGB, so the generator converts the frames to 16-bit RGB on its
# own (matrix, limited range, bilinear chroma at the siting); that rounding moves the scores
# by up to 1.2e-4 of their value, hence the tolerance (a wrong siting moves them by 4e-3,
# a wrong matrix by 5e-2).
FATE_SSIMULACRA2-$(CONFIG_SSIMULACRA2_FILTER) += fate-filter-refcmp-ssimulacra2-yuv420p
fate-filter-refcmp-ssimulacra2-yuv420p: CMD = refcmp_metadata ssimulacra2 yuv420p 0.0005

FATE_SSIMULACRA2-$(CONFIG_SSIMULACRA2_FILTER) += fate-filter-refcmp-ssimulacra2-yuv420p10
fate-filter-refcmp-ssimulacra2-yuv420p10: CMD = refcmp_metadata ssimulacra2 yuv420p10 0.0005

# 4:4:0 (a 4:2:2 JPEG turned a quarter): chroma subsampled vertically only
FATE_SSIMULACRA2-$(CONFIG_SSIMULACRA2_FILTER) += fate-filter-refcmp-ssimulacra2-yuv440p
fate-filter-refcmp-ssimulacra2-yuv440p: CMD = refcmp_metadata ssimulacra2 yuv440p 0.0005

FATE_SSIMULACRA2-$(call ALLYES, SSIMULACRA2_FILTER SETPARAMS_FILTER) += fate-filter-refcmp-ssimulacra2-yuv420p-bt709
fate-filter-refcmp-ssimulacra2-yuv420p-bt709: CMD = refcmp_metadata ssimulacra2 yuv420p,setparams=colorspace=bt709 0.0005

FATE_SSIMULACRA2-$(call ALLYES, SSIMULACRA2_FILTER SETPARAMS_FILTER) += fate-filter-refcmp-ssimulacra2-yuv420p-topleft
fate-filter-refcmp-ssimulacra2-yuv420p-topleft: CMD = refcmp_metadata ssimulacra2 yuv420p,setparams=chroma_location=topleft 0.0005

FATE_SSIMULACRA2_FFMPEG-$(call ALLYES, TESTSRC2_FILTER SPLIT_FILTER AVGBLUR_FILTER    \
                                       METADATA_FILTER WRAPPED_AVFRAME_ENCODER        \
                                       NULL_MUXER PIPE_PROTOCOL) += $(FATE_SSIMULACRA2-yes)

FATE_FFMPEG += $(FATE_SSIMULACRA2_FFMPEG-yes)

fate-ssimulacra2: $(FATE_SSIMULACRA2_FFMPEG-yes)
