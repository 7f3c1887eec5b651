"""relax.backend: what the pipelines hand an operator kept whole in the
graph (tir.composite) before it is legalized into its parts: on a GPU,
nn.attention becomes one fused kernel (DispatchAttention)."""
from .attention import DispatchAttention, attention_kernel, schedule_attention

__all__ = ["DispatchAttention", "attention_kernel", "schedule_attention"]
