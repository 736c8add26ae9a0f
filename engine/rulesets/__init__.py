"""The built-in rulesets. Importing this package registers each of them."""

from engine.registry import register
from engine.rulesets.classical import Classical
from engine.rulesets.culture_and_conquest import CultureAndConquest
from engine.rulesets.medieval_micromanager import MedievalMicromanager
from engine.rulesets.temples_and_swords import TemplesAndSwords
from engine.rulesets.tribes import Tribes

register(TemplesAndSwords())
register(CultureAndConquest())
register(Classical())
register(Tribes())
register(MedievalMicromanager())
