// gymcard: every command; those that need the network are handed to gymcard-network (GymcardCore/Online.swift).
import GymcardCLI

GymcardEntry.run(online: nil)
