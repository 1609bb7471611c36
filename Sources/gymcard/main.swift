// gymcard: every command; those that need the network are handed to gymcard-network (GymcardCLI/Online.swift).
import GymcardCLI

GymcardEntry.run(online: nil)
