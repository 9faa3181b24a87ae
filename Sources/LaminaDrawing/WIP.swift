import LaminaCore
