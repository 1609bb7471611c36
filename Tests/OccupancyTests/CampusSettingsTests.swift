import Configuration
import Foundation
import Occupancy
import Testing

private let profile = """
    {"campus": "ucsc", "campuses": {"ucsc": {"base": "https://campusrec.ucsc.edu", "timeZone": "America/Los_Angeles",
      "facilities": [{"key": "gym", "name": "Fitness Center", "id": "1799266f-57d9-4cb2-9f43-f5fd88b241db",
        "capacity": 150},
       {"key": "pool", "name": "Pool", "id": "6b4acca4-485d-44f9-93c7-391a7526e3fc", "capacity": 100,
        "measure": "percent"}]},
      "waterloo": {"base": "https://warrior.uwaterloo.ca", "read": "fragments",
        "displayType": "00000000-0000-0000-0000-000000004488", "timeZone": "America/Toronto",
        "facilities": [{"key": "cif", "name": "CIF", "id": "00000000-0000-0000-0000-0000000000aa", "capacity": 300}]}}}
    """

@Suite("Campus profiles in the config file")
struct CampusSettingsTests {
    @Test("the campus in use comes from the file; --campus overrides; vt is the built-in")
    func choice() throws {
        let file = Data(profile.utf8)
        let inUse = try OccupancySettings.resolve(configFile: file, environment: [:])
        #expect(inUse.campus == "ucsc")
        #expect(inUse.read == .page)
        #expect(inUse.page.absoluteString == "https://campusrec.ucsc.edu/FacilityOccupancy")
        #expect(inUse.timeZone == "America/Los_Angeles")
        #expect(inUse.facilities.map(\.measure) == [.people, .percent])
        #expect(inUse.facilities[0].shortName == "Fitness Center")

        let vt = try OccupancySettings.resolve(configFile: file, environment: [:], campus: "vt")
        #expect(vt == OccupancySettings.virginiaTech)

        let waterloo = try OccupancySettings.resolve(configFile: file, environment: [:], campus: "waterloo")
        #expect(waterloo.read == .fragments)
        #expect(
            waterloo.endpoint.absoluteString
                == "https://warrior.uwaterloo.ca/FacilityOccupancy/GetFacilityData")
        #expect(waterloo.displayType == "00000000-0000-0000-0000-000000004488")
        #expect(try OccupancySettings.profileNames(configFile: file) == ["ucsc", "waterloo"])
    }

    @Test("GYMCARD_OCCUPANCY_URL replaces what a campus reads: its page, or its endpoint")
    func environment() throws {
        let file = Data(profile.utf8)
        let page = try OccupancySettings.resolve(
            configFile: file, environment: ["GYMCARD_OCCUPANCY_URL": "http://127.0.0.1:9/p"])
        #expect(page.page.absoluteString == "http://127.0.0.1:9/p")
        let fragments = try OccupancySettings.resolve(
            configFile: file, environment: ["GYMCARD_OCCUPANCY_URL": "http://127.0.0.1:9/f"],
            campus: "waterloo")
        #expect(fragments.endpoint.absoluteString == "http://127.0.0.1:9/f")
    }

    @Test(
        "a broken profile names what is wrong",
        arguments: [
            (#"{"campus": "nope"}"#, "there is no campus nope; known: vt"),
            (
                #"{"campus": "x", "campuses": {"x": {"base": "https://a.b", "read": "post", "timeZone": "UTC", "facilities": [{"key": "k", "name": "n", "id": "i", "capacity": 1}]}}}"#,
                "campuses.x.read must be page or fragments, not post"
            ),
            (
                #"{"campus": "x", "campuses": {"x": {"base": "https://a.b", "read": "fragments", "timeZone": "UTC", "facilities": [{"key": "k", "name": "n", "id": "i", "capacity": 1}]}}}"#,
                "campuses.x reads fragments but has no displayType"
            ),
            (
                #"{"campus": "x", "campuses": {"x": {"base": "https://a.b", "timeZone": "../etc", "facilities": [{"key": "k", "name": "n", "id": "i", "capacity": 1}]}}}"#,
                "campuses.x.timeZone is not a time zone name"
            ),
            (
                #"{"campus": "x", "campuses": {"x": {"base": "https://a.b", "timeZone": "UTC", "facilities": [{"key": "k", "name": "n", "id": "i", "capacity": 1, "measure": "heads"}]}}}"#,
                "measure must be people or percent, not heads"
            ),
        ])
    func broken(text: String, message: String) {
        #expect {
            try OccupancySettings.resolve(configFile: Data(text.utf8), environment: [:])
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("a profile written by campus add reads back as the same profile")
    func roundTrip() throws {
        let written = CampusProfile(
            name: "tmu", base: URL(string: "https://recportal.torontomu.ca")!, read: .page, displayType: nil,
            timeZone: "America/Toronto",
            facilities: [
                Facility(
                    key: "gym", name: "Gym", shortName: "Gym", id: "aaaa1111-0000-0000-0000-000000000000",
                    capacity: 300, segments: 14, measure: .percent)
            ])
        let text = "{\"campuses\": {\"tmu\": " + written.document.text + "}}"
        let settings = try OccupancySettings.resolve(
            configFile: Data(text.utf8), environment: [:], campus: "tmu")
        #expect(settings == written.settings)
    }

    @Test("known campuses are recognised by their site, with www. or without")
    func known() {
        #expect(
            KnownCampus.at(URL(string: "https://warrior.uwaterloo.ca/FacilityOccupancy")!)?.name == "waterloo"
        )
        #expect(KnownCampus.at(URL(string: "https://go.recsports.virginia.edu")!)?.name == "uva")
        #expect(KnownCampus.at(URL(string: "https://example.edu")!) == nil)
    }
}
