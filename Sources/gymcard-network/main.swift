// gymcard-network: gymcard's commands with the HTTP client (libcurl) and the feed parsers (Foundation).
// gymcard runs it for the commands that fetch.
import Events
import EventsFeed
import FetchingCurl
import GymcardCLI
import GymcardCore

GymcardEntry.run(
    online: Online(
        makeClient: { userAgent in CurlClient(userAgent: userAgent) },
        readEventsFeed: { response throws(FeedProblem) in try EventsFeedReading.read(response) }))
