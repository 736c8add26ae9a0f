"""Pictures for the reports: the map (drawn with Pillow from engine.mapdata's MapView) and the
campaign chart (matplotlib) as PNG bytes, the same bytes for the same data; and the chart as SVG
text for the web archive (pbem.pictures.chart_svg)."""

from pbem.pictures.chart import campaign_chart
from pbem.pictures.chart_svg import campaign_svg
from pbem.pictures.mapimage import MapPicture, map_picture

__all__ = ["MapPicture", "campaign_chart", "campaign_svg", "map_picture"]
