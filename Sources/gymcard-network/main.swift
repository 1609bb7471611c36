// gymcard-network: gymcard's commands with URLSession. gymcard runs it for the commands that fetch.
import Events
import EventsFeed
import FetchingURLSession
import GymcardCLI

GymcardEntry.run(
    online: Online(
        makeClient: { userAgent in URLSessionClient(userAgent: userAgent) },
        readEventsFeed: { response throws(FeedProblem) in try EventsFeedReading.read(response) }))
