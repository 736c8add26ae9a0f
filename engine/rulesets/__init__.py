"""The built-in rulesets, one entry each in BUILT_IN; engine.registry registers them, in this
order, before any plugin. (This package imports no registry: the registry imports it.)"""

from engine.rulesets.classical import Classical
from engine.rulesets.culture_and_conquest import CultureAndConquest
from engine.rulesets.medieval_micromanager import MedievalMicromanager
from engine.rulesets.temples_and_swords import TemplesAndSwords
from engine.rulesets.tribes import Tribes

BUILT_IN = (
    TemplesAndSwords(),
    CultureAndConquest(),
    Classical(),
    Tribes(),
    MedievalMicromanager(),
)
