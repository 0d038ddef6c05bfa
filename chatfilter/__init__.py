"""placeholder"""

from chatfilter._filter import mentions_number

__all__ = ["mentions_number"]
