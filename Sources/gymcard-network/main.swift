// gymcard-network: gymcard's commands with URLSession. gymcard runs it for the commands that fetch.
import CLibcurlOnDemand
import Events
import EventsFeed
import Fetching
import FetchingURLSession
import GymcardCLI

GymcardEntry.run(
    online: Online(
        makeClient: { userAgent in URLSessionClient(userAgent: userAgent) },
        unavailableReason: {
            gymcard_libcurl_available() == 1
                ? nil
                : "the network needs libcurl.so.4, which could not be loaded; install Debian's libcurl4 package"
        },
        readEventsFeed: { response throws(FeedProblem) in try EventsFeedReading.read(response) }))
