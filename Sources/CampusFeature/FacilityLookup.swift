import GymcardCore
import Occupancy

extension OccupancySettings {
    /// The facility `argument` names (its key, its name or short name in any case, or a prefix of its
    /// name that only one facility has), or all of them when `argument` is `nil`. Every command that takes
    /// a facility looks it up here.
    public func facilities(matching argument: String?) throws(FacilityLookupProblem) -> [Facility] {
        guard let argument else { return facilities }
        let wanted = argument.lowercased()
        let matches = facilities.filter {
            $0.key.lowercased() == wanted || $0.name.lowercased() == wanted
                || $0.shortName.lowercased() == wanted
                || $0.key.lowercased().hasPrefix(wanted)
                || $0.name.lowercased().hasPrefix(wanted)
                || $0.shortName.lowercased().hasPrefix(wanted)
        }
        if let exact = matches.first(where: {
            $0.key.lowercased() == wanted || $0.name.lowercased() == wanted
                || $0.shortName.lowercased() == wanted
        }) {
            return [exact]
        }
        guard let match = matches.first, matches.count == 1 else {
            throw FacilityLookupProblem(
                argument: argument, known: facilities.map(\.key), ambiguous: !matches.isEmpty)
        }
        return [match]
    }
}

/// No facility, or several, answer to a name.
public struct FacilityLookupProblem: Error, CustomStringConvertible {
    /// What was asked for.
    public var argument: String
    /// The keys of the campus's facilities.
    public var known: [String]
    /// Several facilities answer to it (else none does).
    public var ambiguous: Bool

    /// The problem in words, without advice (the CLI adds it).
    public var description: String {
        ambiguous ? "\(argument) could be several facilities" : "no facility \(argument)"
    }
}
