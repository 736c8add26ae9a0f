"""Pictures for the reports: the map (drawn with Pillow from engine.mapdata's MapView) and the
campaign chart (matplotlib). Both are PNG bytes, the same bytes for the same data."""

from pbem.pictures.chart import campaign_chart
from pbem.pictures.mapimage import MapPicture, map_picture

__all__ = ["MapPicture", "campaign_chart", "map_picture"]
