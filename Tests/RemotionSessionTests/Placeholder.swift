import Testing
import RemotionSession
